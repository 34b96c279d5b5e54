// What the competition's pages (/enter, /entrant/NAME) share: making an element (HTML or
// SVG; every text goes in as text, never as markup) and calling the server's API (an
// answer that is not ok throws its one-line error).
(function () {
  "use strict";

  function make(node, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, String(value));
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  const el = (tag, attrs, ...children) => make(document.createElement(tag), attrs, children);
  const svg = (tag, attrs, ...children) =>
    make(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);

  async function call(path, options) {
    const answer = await fetch(path, options);
    let data = null;
    try { data = await answer.json(); } catch (e) { data = { error: `the server answered ${answer.status}` }; }
    if (!answer.ok) throw new Error((data && data.error) || `the server answered ${answer.status}`);
    return data;
  }

  window.arenaPage = Object.freeze({ el, svg, call });
})();
