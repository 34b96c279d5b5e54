"""The web pages' languages: every message in all six, chosen as the browser and menu ask,
cards written as each language's players write them, the rules page the same in each.

The missing-message check reads whatever area files ``arena/web/locales/*/`` holds (the
pages' own ``live.json``, ``table.json`` and any added later) and whatever the pages use
(``data-i18n`` attributes and ``t(...)`` calls in ``arena/web/static/**`` and the package's
Python and HTML): it is a function of the two folders, tried first on a tree with faults.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from arena.game import PRESIDENT, SCUM, VICE_PRESIDENT, VICE_SCUM
from arena.web import _i18n
from arena.web._i18n import (
    LANGUAGES,
    MissingMessage,
    card_text,
    catalog,
    move_text,
    negotiate,
    placeholders,
    rank_text,
    run_text,
    t,
)

WEB = Path(_i18n.__file__).resolve().parent

# How pages use a message: an attribute i18n.js fills, a call in a script, a call in Python.
# (A value built by a template, data-i18n="{key}" or "${key}", is not a key and is skipped.)
_ATTRIBUTE = re.compile(
    r"""data-i18n(?:-(?:title|placeholder|aria-label|alt))?=(["'])([^"'{}$]+)\1""")
# In scripts: t(key, ...), arenaI18n.t(key, ...) and the live pages' text(key, fallback, ...).
_JS_CALL = re.compile(
    r"""(?:\barenaI18n\.|(?<![\w.$]))(?:t|text)\(\s*(["'`])([^"'`$\\]+)\1\s*[,)]""")
_PY_CALL = re.compile(r"""(?<![\w.])t\(\s*[\w.\[\]"']+\s*,\s*(["'])([^"'\\]+)\1""")


def used_keys(sources: Path) -> dict[str, set[str]]:
    """Every message key the files under ``sources`` use, with the files using it."""
    found: dict[str, set[str]] = {}
    for path in sorted(sources.rglob("*")):
        if path.suffix not in {".js", ".html", ".py"} or "locales" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        patterns = [_ATTRIBUTE, _PY_CALL if path.suffix == ".py" else _JS_CALL]
        for pattern in patterns:
            for match in pattern.finditer(text):
                found.setdefault(match.group(2), set()).add(str(path.relative_to(sources)))
    return found


def catalog_problems(locales: Path, sources: Path) -> list[str]:
    """What is wrong with the catalogs under ``locales`` for the pages under ``sources``:
    an area file a language lacks, a key missing, empty or with other placeholders than
    English's, a key two areas define, a key a page uses that no catalog has."""
    problems: list[str] = []
    files: dict[str, dict[str, dict[str, str]]] = {}
    for lang in LANGUAGES:
        files[lang] = {}
        for path in sorted((locales / lang).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            files[lang][path.stem] = data
    every_area = sorted({area for by_area in files.values() for area in by_area})
    english: dict[str, str] = {}
    for area in every_area:
        for lang in LANGUAGES:
            if area not in files[lang]:
                problems.append(f"{lang}/{area}.json is missing")
        keys = sorted({key for lang in LANGUAGES for key in files[lang].get(area, {})})
        for key in keys:
            if key in english:
                problems.append(f"{key!r} is defined in more than one area (again in {area})")
            wanted = placeholders(files["en"].get(area, {}).get(key, ""))
            english[key] = files["en"].get(area, {}).get(key, "")
            for lang in LANGUAGES:
                text = files[lang].get(area, {}).get(key)
                if text is None:
                    problems.append(f"{lang}/{area}.json lacks {key!r}")
                elif not text.strip():
                    problems.append(f"{lang}/{area}.json has {key!r} empty")
                elif placeholders(text) != wanted:
                    problems.append(f"{lang}/{area}.json: {key!r} has placeholders "
                                    f"{sorted(placeholders(text))}, English {sorted(wanted)}")
    for key, users in sorted(used_keys(sources).items()):
        if key not in english:
            problems.append(f"{key!r} is used by {', '.join(sorted(users))} but no catalog has it")
    return problems


# -- the missing-message test ---------------------------------------------------------------


def test_every_message_exists_in_all_six_languages_and_every_used_key_in_a_catalog() -> None:
    assert catalog_problems(WEB / "locales", WEB) == []


def test_the_check_finds_a_missing_key_an_empty_one_a_placeholder_a_missing_file_and_a_use(
        tmp_path: Path) -> None:
    locales, sources = tmp_path / "locales", tmp_path / "pages"
    (sources / "static").mkdir(parents=True)
    for lang in LANGUAGES:
        (locales / lang).mkdir(parents=True)
        common = {"menu.home": "x", "greet": "{name}!"}
        if lang == "nl":
            del common["menu.home"]
        if lang == "tr":
            common["greet"] = "{naam}!"
        if lang == "da":
            common["greet"] = " "
        (locales / lang / "common.json").write_text(json.dumps(common), encoding="utf-8")
        if lang != "pl":  # an area file added later, and forgotten in Polish
            (locales / lang / "table.json").write_text('{"table.seat": "s"}', encoding="utf-8")
    (sources / "static" / "page.js").write_text(
        'el.title = t("table.seat"); t("nowhere", {a: 1}); arenaI18n.t(\'menu.gone\');\n'
        't("rank." + r);  // built at run time: not checked here\n'
        'text("live.gone", "fallback"); response.text();\n', encoding="utf-8")
    (sources / "static" / "page.html").write_text('<b data-i18n="menu.home"></b>'
                                                  '<i data-i18n-title="also.gone"></i>')
    (sources / "_page.py").write_text('t(lang, "py.gone", n=1)\nt(lang, f"rank.{x}")\n'
                                      'f\'<b data-i18n="{key}">\'\n')
    problems = catalog_problems(locales, sources)
    assert problems == [
        "da/common.json has 'greet' empty",
        "tr/common.json: 'greet' has placeholders ['naam'], English ['name']",
        "nl/common.json lacks 'menu.home'",
        "pl/table.json is missing",
        "pl/table.json lacks 'table.seat'",
        "'also.gone' is used by static/page.html but no catalog has it",
        "'live.gone' is used by static/page.js but no catalog has it",
        "'menu.gone' is used by static/page.js but no catalog has it",
        "'nowhere' is used by static/page.js but no catalog has it",
        "'py.gone' is used by _page.py but no catalog has it",
    ]


def test_the_scan_sees_the_pages_own_uses() -> None:
    used = used_keys(WEB)
    assert {"lang.menu", "menu.rules", "rules.contents", "card.joker", "move.pass"} <= set(used)


def test_every_role_the_rules_give_and_every_lettered_rank_has_a_message() -> None:
    for lang in LANGUAGES:
        messages = catalog(lang)
        for role in (PRESIDENT, VICE_PRESIDENT, "citizen", VICE_SCUM, SCUM):
            assert messages[f"role.{role}"]
        for rank in "TJQKA":
            assert messages[f"rank.{rank}"] and messages[f"rank.{rank}.name" if rank != "T"
                                                          else "rank.T"]


# -- choosing a language ----------------------------------------------------------------------


@pytest.mark.parametrize(("header", "chosen", "expected"), [
    (None, None, "en"),
    ("", None, "en"),
    ("nl", None, "nl"),
    ("nl-BE,nl;q=0.9", None, "nl"),
    ("da, en;q=0.5", None, "da"),
    ("en;q=0.2, tr;q=0.9", None, "tr"),
    ("fr-FR, nb;q=0.9, en;q=0.8", None, "no"),  # Bokmål is Norwegian; French is not spoken
    ("nn-NO", None, "no"),
    ("pl;q=0.5, da;q=0.5", None, "pl"),  # a tie keeps the header's order
    ("tr;q=0, en;q=0.1", None, "en"),  # q=0 means "not this one"
    ("fr, *;q=0.1", None, "en"),
    ("de, fr", None, "en"),
    ("da;q=banana, pl;q=0.4", None, "da"),  # a malformed q counts as 1
    (";;,,q=1,;", None, "en"),
    ("tr", "nl", "nl"),  # the menu (cookie or ?lang=) wins
    ("tr", "PL", "pl"),
    ("tr", "xx", "tr"),  # a choice arena lacks is ignored
    ("tr", "<script>", "tr"),
    (None, "nb", "no"),
])
def test_negotiate(header: str | None, chosen: str | None, expected: str) -> None:
    assert negotiate(header, chosen) == expected


# -- messages ---------------------------------------------------------------------------------


def test_t_fills_placeholders_in_each_language() -> None:
    assert t("en", "term.deal", number=2, total=5) == "Deal 2 of 5"
    assert t("nl", "term.deal", number=2, total=5) == "Ronde 2 van 5"
    assert t("pl", "error.illegal_move", reason="{x}") == "Niedozwolony ruch: {x}"


def test_t_raises_on_a_missing_message_or_value_under_tests() -> None:
    with pytest.raises(MissingMessage, match=r"no such message.*'nl'.*'no\.such\.key'"):
        t("nl", "no.such.key")
    with pytest.raises(MissingMessage, match=r"no value for \{total\}"):
        t("en", "term.deal", number=1)


def test_t_at_run_time_falls_back_to_english_with_one_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    monkeypatch.delenv(_i18n.STRICT_ENV, raising=False)
    monkeypatch.setitem(_i18n._own("en"), "only.english", "Only {what}")
    monkeypatch.setattr(_i18n, "_warned", set())
    warnings: list[dict[str, object]] = []
    monkeypatch.setattr(_i18n, "_log", SimpleNamespace(
        warning=lambda event, **kw: warnings.append({"event": event, **kw})))
    assert _i18n.t("da", "only.english", what="English") == "Only English"
    assert _i18n.t("da", "only.english", what="again") == "Only again"
    assert _i18n.t("da", "never.anywhere") == "never.anywhere"
    assert warnings == [
        {"event": "missing message", "lang": "da", "key": "only.english",
         "problem": "no such message"},
        {"event": "missing message", "lang": "da", "key": "never.anywhere",
         "problem": "no such message"},
    ]


def test_catalog_is_english_under_each_language() -> None:
    assert set(catalog("tr")) == set(catalog("en"))
    assert catalog("tr")["move.pass"] == "Pas"
    assert catalog("xx") == catalog("en")


def test_a_malformed_catalog_file_is_one_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    (tmp_path / "da").mkdir()
    (tmp_path / "da" / "live.json").write_text('{"a": 1}', encoding="utf-8")
    (tmp_path / "nl").mkdir()
    (tmp_path / "nl" / "live.json").write_text('{"a": ', encoding="utf-8")
    monkeypatch.setattr(_i18n, "LOCALES", tmp_path)
    _i18n._areas.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"da/live\.json: must be one JSON object of str"):
            _i18n.areas("da")
        with pytest.raises(ValueError, match=r"nl/live\.json: not readable JSON"):
            _i18n.areas("nl")
    finally:
        _i18n._areas.cache_clear()


# -- cards as players write them --------------------------------------------------------------


@pytest.mark.parametrize(("lang", "highest_run", "court"), [
    ("en", "K-A-2", "J Q K A"),
    ("nl", "H-A-2", "B V H A"),  # boer, vrouw, heer, aas: the Dutch seed's H-A-2
    ("da", "K-A-2", "B D K A"),  # bonde, dame, konge, es (the seed writes A)
    ("pl", "K-A-2", "W D K A"),  # walet, dama, król, as
    ("no", "K-A-2", "Kn D K A"),  # knekt, dame, konge, ess (the seed writes A)
    ("tr", "P-A-2", "V K P A"),  # vale, kız, papaz, as: the Turkish seed's P-A-2
])
def test_ranks_as_each_language_writes_them(lang: str, highest_run: str, court: str) -> None:
    assert run_text(lang, "KA2") == highest_run
    assert " ".join(rank_text(lang, r) for r in "JQKA") == court
    assert rank_text(lang, "T") == rank_text(lang, "10") == rank_text(lang, 7) == "10"
    assert rank_text(lang, 0) == "3" and rank_text(lang, "2") == "2"


def test_the_seeds_write_the_highest_run_of_three_as_these_rules_do() -> None:
    seeds = Path("/work/shared/seeds")
    if not seeds.is_dir():
        pytest.skip("the seed pages are not on this machine")
    texts = [path.read_text(encoding="utf-8") for path in sorted(seeds.glob("*.txt"))]
    for lang, marker in [("nl", "Reeksen"), ("da", "Rækker"), ("pl", "Sekwensy"),
                         ("no", "Rekker"), ("tr", "Seriler")]:
        page = next(text for text in texts if marker in text)
        assert f"{run_text(lang, 'KA2')} " in page
        assert f"{run_text(lang, 'A23')} " in page


def test_card_text_and_move_text_are_for_eyes_and_the_protocol_text_is_untouched() -> None:
    assert card_text("nl", "KH") == "H♥"
    assert card_text("tr", "QS") == "K♠"
    assert card_text("tr", "KD") == "P♦"
    assert card_text("pl", "TC") == "10♣"
    assert card_text("da", "JK") == "Joker"
    assert move_text("nl", "JK=7H 8H 9H") == "Joker (7♥) 8♥ 9♥"
    assert move_text("tr", "pass") == "Pas"
    with pytest.raises(ValueError, match="not a card"):
        card_text("en", "1X")
    with pytest.raises(ValueError, match="not a rank"):
        rank_text("en", "Z")


def test_every_key_the_report_uses_is_in_a_catalog() -> None:
    """The report (arena/report/static) speaks through the same catalogs."""
    report = WEB.parent / "report" / "static"
    used = used_keys(report)
    assert "report.h.leaderboard" in used and "report.plays" in used
    assert sorted(set(used) - set(catalog("en"))) == []


def test_every_refusal_of_the_rules_has_a_message() -> None:
    """The seat page says the rules' refusal in its language by its code
    (``table.refusal.<code>``, built at run time: the scan does not see it)."""
    from arena.game._answer import REFUSALS

    codes = ["malformed", "illegal", *(code for code, _ in REFUSALS)]
    for lang in LANGUAGES:
        assert [c for c in codes if f"table.refusal.{c}" not in catalog(lang)] == [], lang
