#!/usr/bin/env node
// A complete arena bot in JavaScript (Node.js 18+, no packages), speaking the bot protocol
// (docs/protocol.md) on stdin/stdout. It asks for the legal moves in its greeting, so it
// needs no move generator: it plays the first legal move, the weakest set it can, and
// passes only when that is all it may do. Run it with:
//   arena match cmd:"node examples/node-bot/bot.js" random random random
const readline = require("node:readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "start":
      // legal_moves: every play request will carry "legal", the moves in canonical text.
      send({ type: "ready", id: msg.id, name: "node-first", version: "1.0", legal_moves: true });
      break;
    case "play":
      // "pass", when legal, is the last of the list: the first entry is a play if any is.
      send({ type: "move", id: msg.id, move: msg.legal[0] });
      break;
    case "exchange":
      // The hand comes sorted low to high: give back the lowest cards.
      send({ type: "exchange", id: msg.id, cards: msg.view.hand.slice(0, msg.count) });
      break;
    case "quit":
      process.exit(0);
  }
  // "end_deal" needs no answer.
});
