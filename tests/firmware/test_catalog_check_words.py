"""`catalog check`'s problems in the table's languages: every code has a sentence in every
catalog with the engine's placeholders, English is the engine's sentence word for word (so
the CLI and the pages agree), and the owner's pages answer in German and Persian."""

from __future__ import annotations

import base64
import contextlib
import io
import string

import pytest
from catalog_problems import every_problem, sample
from web_table import WebTable

from engine.arcana.problems import SENTENCES
from firmware import cli
from firmware.language import catalog_problem, codes, load, using
from firmware.web.catalog_checks import SENTENCES as PAGE_SENTENCES
from firmware.web.catalog_transfer import to_toml

ALL = {**SENTENCES, **PAGE_SENTENCES}
TABLE = "catalog_check."


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", codes())
def test_every_problem_has_a_sentence_in_every_language_with_the_engines_placeholders(code):
    texts = load(code).texts
    ours = {key.removeprefix(TABLE): t for key, t in texts.items() if key.startswith(TABLE)}
    assert sorted(ours) == sorted(ALL)  # none missing, none the checker never says
    assert {c: fields(t) for c, t in ours.items()} == {c: fields(t) for c, t in ALL.items()}


def test_english_is_the_engines_sentence_word_for_word(tmp_path):
    english = load("en")
    assert {c: english.texts[TABLE + c] for c in ALL} == ALL
    for code, said, _expected in every_problem(tmp_path):
        for problem in said:
            assert english.text(TABLE + problem.code, **problem.params) == problem, code
            with using("en"):
                assert catalog_problem(problem) == problem


@pytest.mark.parametrize("language", ["de", "fa"])
def test_each_problem_is_said_in_the_language_with_its_values(tmp_path, language):
    english = load("en")
    for code, said, expected in every_problem(tmp_path):
        (problem,) = [p for p in said if p == expected]
        with using(language):
            shown = catalog_problem(problem)
        assert shown == load(language).text(TABLE + code, **problem.params)
        assert shown != expected and shown != english.text(TABLE + code, **problem.params)
        for value in problem.params.values():
            assert str(value) in shown, (code, value, shown)
    with using(language):  # a sentence without a code (a web page's own) is left as it is
        assert catalog_problem("a page's own words") == "a page's own words"


def test_german_says_the_problems_in_the_rulebooks_words():
    de = load("de")
    said = {code: de.texts[TABLE + code] for code in ALL}
    assert said["guild_cards"].startswith('Gilde "{guild}": braucht genau 1 Basis + 9 Agenten')
    assert "(Marktkarte)" in said["card_guild_or_main"]
    assert "Haupt-Arcanum" in said["card_main_zero"]
    assert "Spielende-Karte" in said["game_end_count"]
    assert "Marktkarten" in said["too_few_market"]
    assert "Lehen" in said["card_fief_unknown"]


# -- over HTTP: the owner's phone on a German and on a Persian table -----------------------------
WANTED = {
    "de": (
        'Karte "usurers_base": unbekannte Gilde "usurer" in guild',
        'Karte "usurers_base": Wert für vp fehlt',
        'Gilde "thieves": braucht genau 1 Basis + 9 Agenten + 1 Ort + 1 Relikt, '
        "hat 1 Basis, 8 Agenten, 1 Ort, 1 Relikt",
    ),
    "fa": (
        'کارت "usurers_base": صنف ناشناختهٔ "usurer" در guild',
        'کارت "usurers_base": مقداری برای vp نیست',
        'صنف "thieves": دقیقاً 1 پایگاه + 9 مأمور + 1 مکان + 1 یادگار لازم است، '
        "دارد: 1 پایگاه، 8 مأمور، 1 مکان، 1 یادگار",
    ),
}


@pytest.mark.parametrize("language", ["de", "fa"])
def test_the_catalog_form_refuses_in_the_tables_language(tmp_path, language):
    unknown_guild, no_vp, _ = WANTED[language]
    with WebTable(tmp_path, language=language) as table:
        owner = table.pair_owner()
        assert owner.post("api/catalog/building", {"on": True})[0] == 200
        bad = {"id": "usurers_base", "kind": "base", "guild": "usurer"}
        status, answer = owner.post("api/catalog/check", {"entry": bad, "replaces": None})
        assert status == 200
        assert answer["problems"] == {"guild": [unknown_guild], "vp": [no_vp]}
        status, answer = owner.post("api/catalog/save", {"entry": bad})
        assert status == 400
        assert answer["problems"] == {"guild": [unknown_guild], "vp": [no_vp]}
        not_saved = load(language).text("web_refusal.not_saved", problem=no_vp)  # the first (vp)
        assert answer["error"] == not_saved and not_saved.startswith(("Nicht", "ذخیره"))
        assert not (table.state_dir / "catalog.toml").exists()  # nothing saved


@pytest.mark.parametrize("language", ["de", "fa"])
def test_the_catalog_page_and_an_import_say_the_check_in_the_tables_language(tmp_path, language):
    _, _, lacking_agent = WANTED[language]
    data = sample()
    data["cards"] = [c for c in data["cards"] if c["id"] != "thieves_agent_9"]
    raw = base64.b64encode(to_toml(data).encode()).decode()
    with WebTable(tmp_path, language=language) as table:
        owner = table.pair_owner()
        status, empty = owner.get("api/catalog/progress")  # no file yet: it lacks a catalog
        none_yet = load(language).text(TABLE + "no_catalog")
        assert status == 200 and empty["check"]["lacking"] == [none_yet] != ["no catalog yet"]
        status, done = owner.post("api/catalog/import", {"format": "toml", "data": raw})
        assert status == 200 and done["imported"]["lacking"] == [lacking_agent]
        status, seen = owner.get("api/catalog/progress")
        assert status == 200 and seen["check"] == {
            "problems": [],
            "lacking": [lacking_agent],
            "playable": False,
        }
        data["cards"].append({"id": "m_1", "kind": "relic", "vp": 1, "main": "gold"})
        raw = base64.b64encode(to_toml(data).encode()).decode()
        status, answer = owner.post("api/catalog/import", {"format": "toml", "data": raw})
        main = load(language).text(TABLE + "card_main_unknown", card="m_1", value="gold")
        assert status == 422 and main in answer["problems"] and main in answer["error"]


def test_an_english_table_says_what_the_cli_prints(tmp_path):
    with WebTable(tmp_path) as table:
        owner = table.pair_owner()
        owner.post("api/catalog/building", {"on": True})
        bad = {"id": "usurers_base", "kind": "base", "guild": "usurer", "vp": 0}
        status, answer = owner.post("api/catalog/check", {"entry": bad, "replaces": None})
        said = 'card "usurers_base": unknown guild "usurer" in guild'  # as the CLI prints it
        assert status == 200 and answer["problems"] == {"guild": [said]}


def check_printed(path, *options: str) -> list[str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert cli.main(["catalog", "check", str(path), *options]) == 2
    return err.getvalue().splitlines()


def test_the_cli_says_the_problems_in_english_unless_asked(tmp_path):
    path = tmp_path / "mine.toml"
    data = sample()
    data["guilds"]["thieves"]["tie_arcanum"] = "luck"
    data["cards"] = [c for c in data["cards"] if c["id"] != "game_end"]
    path.write_text(to_toml(data), encoding="utf-8")
    assert check_printed(path) == [
        f"{path}: 2 problem(s)",
        f'{path}: guild "thieves": unknown arcanum "luck" in tie_arcanum',
        f"{path}: cards: need exactly 1 game_end card, found 0",
    ]
    assert check_printed(path, "--language", "de")[1:] == [
        f'{path}: Gilde "thieves": unbekanntes Arcanum "luck" in tie_arcanum',
        f"{path}: cards: nötig ist genau 1 Spielende-Karte (game_end), gefunden 0",
    ]
    # Persian keeps its zero-width non-joiners (spelling) and drops the pages' leading RLM
    assert check_printed(path, "--language", "fa")[1:] == [
        f'{path}: صنف "thieves": آرکانوم ناشناختهٔ "luck" در tie_arcanum',
        f"{path}: cards: دقیقاً 1 کارت game_end لازم است، 0 پیدا شد",
    ]
    wide = data | {"guilds": {**data["guilds"], "ferrymen": {"names": {"xx": "x"}}}}
    path.write_text(to_toml(wide), encoding="utf-8")
    (said,) = [line for line in check_printed(path, "--language", "fa") if "xx" in line]
    assert "زبان\u200cهای میز" in said and "\\u200c" not in said and "\u200f" not in said
