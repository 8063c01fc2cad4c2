"""The language catalogs: every language has exactly English's keys and placeholders, and the
language is chosen at the table, kept in the game's journalled setup and shown after a resume."""

from __future__ import annotations

import string

import pytest

from firmware.events import Press
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.language import LanguageError, codes, load, refusal, text, using
from firmware.screens import ChoiceScreen, render
from firmware.tabletop import EmulatedTable

OTHERS = [code for code in codes() if code != "en"]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", OTHERS)
def test_no_key_is_missing_or_extra_in_a_catalog(code):
    english, other = load("en").texts, load(code).texts
    assert sorted(set(english) - set(other)) == [], f"{code}.toml lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{code}.toml has keys English lacks"


@pytest.mark.parametrize("code", OTHERS)
def test_a_translation_asks_for_no_name_english_does_not_give(code):
    english, other = load("en").texts, load(code).texts
    strays = {key: fields(t) - fields(english[key]) for key, t in other.items() if key in english}
    assert {key: f for key, f in strays.items() if f} == {}


@pytest.mark.parametrize("code", codes())
def test_every_short_form_is_shorter_and_every_catalog_names_itself(code):
    language = load(code)
    assert language.name and language.name != code
    for name, forms in language.short.items():
        assert forms and all(len(form) < len(name) for form in forms), name


def test_german_uses_the_rulebooks_words():
    de = load("de")
    assert de.text("stake.free_trade") == "Freihandelszone"
    assert de.text("stake.label", n=2) == "Zone 2"
    assert de.text("arcanum.military") == "Militärische Macht"
    assert de.names["Ferrymen"] == "Fährleute"
    assert de.names["Guild of Blades"] == "Gilde der Klingen"


def test_an_unknown_language_is_refused_with_the_languages_there_are():
    with pytest.raises(LanguageError, match=r"no screen texts in language 'xx' \(the table has en"):
        load("xx")
    with pytest.raises(LanguageError):
        load("../en")


def test_an_engine_refusal_is_shown_by_its_code_and_english_keeps_the_engines_sentence():
    assert refusal("game_over", "The game is over (engine)") == "The game is over (engine)"
    with using("de"):
        assert refusal("game_over", "The game is over") == "Das Spiel ist vorbei"
        assert refusal("a_code_nobody_knows", "As the engine says") == "As the engine says"
    assert text("status.round", round=2) == "Round 2"  # the block is left, English again


def test_the_same_model_is_drawn_in_each_language():
    screen = ChoiceScreen("x", ("a", "b"))
    assert render(screen, language="en").tobytes() != render(screen, language="de").tobytes()
    with using("de"):
        assert render(screen).tobytes() == render(screen, language="de").tobytes()


STAKES = ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03", "m_agent_06")


def test_the_language_line_switches_the_choice_screens_and_the_game_keeps_its_language(tmp_path):
    top = EmulatedTable(tmp_path, GameShelf())
    for _ in range(3):
        top.press("select")  # to "Language: English"
    top.press("ok")
    german = ChoiceScreen(
        "Welches Spiel?",
        ("Arcana", "Res Arcana", "Karten anlernen", "Sprache: Deutsch"),
        selected=3,
    )
    assert top.screens()["status"].tobytes() == render(german, language="de").tobytes()
    top.press("select")  # back to Arcana
    top.press("ok")
    top.press("ok")  # the basic game
    top.tap("stake-0", "ferrymen_base")
    top.tap("stake-1", "blades_base")
    top.press("ok")
    for index, card in enumerate(STAKES):
        top.tap(f"stake-{index}", card)
    companion = top.companion
    _, setup = companion.journal.setup(companion.game_id)
    assert setup["language"] == "de"
    with using("de"):
        status = companion.controller.screens()["status"]
    assert (status.prompt, status.turn) == ("Karte ausspielen", "Fährleute")
    assert top.screens()["status"].tobytes() == render(status, language="de").tobytes()
    top.close()
    # a restart resumes the game in German, whatever the table's first language is
    again = EmulatedTable(tmp_path, GameShelf(language="en"))
    assert again.companion.language == "de"
    assert again.screens()["status"].tobytes() == render(status, language="de").tobytes()
    again.close()


def test_the_profiles_language_is_the_first_one_offered():
    games = GameShelf(language="de")
    assert games.setup_controller().language == "de"
    with pytest.raises(LanguageError):
        GameShelf(language="klingon")


def test_a_game_journalled_without_a_language_is_shown_in_the_tables_first_one(tmp_path):
    journal = Journal.open(tmp_path)
    setup = {"catalog": "sample", "variant": "basic", "start_player": 0, "stakes": list(STAKES)}
    setup["players"] = [
        {"name": "Ferrymen", "guild": "ferrymen"},
        {"name": "Blades", "guild": "blades"},
    ]
    journal.start("arcana", setup)
    journal.close()
    top = EmulatedTable(tmp_path, GameShelf(language="de"))
    assert top.companion.language is None  # an older journal: the chooser's language shows
    with using("de"):
        status = top.companion.controller.screens()["status"]
    assert top.screens()["status"].tobytes() == render(status, language="de").tobytes()
    top.companion.handle(Press("undo"))
    top.close()


def test_the_table_profile_names_the_first_language():
    from hardware.profile import LANGUAGES, PROFILES, ProfileError, parse_profile

    assert set(codes()) == set(LANGUAGES)  # hardware/ cannot import the catalogs: kept in step
    text = (PROFILES / "full-table.toml").read_text(encoding="utf-8")
    german = text.replace("[table]\n", '[table]\nlanguage = "de"\n', 1)
    assert german != text
    profile = parse_profile(german)
    assert profile.language == "de"
    assert GameShelf.for_profile(profile).setup_controller().language == "de"
    assert parse_profile(text).language == "en"
    with pytest.raises(ProfileError, match="language"):
        parse_profile(text.replace("[table]\n", '[table]\nlanguage = "xx"\n', 1))


def shown_texts(screen, code: str, digits: str | None) -> dict[str, str]:
    """What each text of the screen was drawn as (its glyphs), by the text asked for."""
    from firmware.screens import RENDERERS
    from firmware.screens.canvas import Canvas

    made: list[Canvas] = []
    original = Canvas.__init__

    def keep(self, size):
        original(self, size)
        made.append(self)

    Canvas.__init__ = keep  # type: ignore[method-assign]
    try:
        with using(code, digits):
            RENDERERS[type(screen)](screen, (128, 64))
    finally:
        Canvas.__init__ = original  # type: ignore[method-assign]
    return {mark.text: mark.shown for canvas in made for mark in canvas.marks}


def test_persian_digits_are_drawn_on_a_persian_screen_only_when_asked_for():
    from firmware.screens import RankedPlayer, RankingScreen

    ranking = RankingScreen(players=(RankedPlayer(1, "مریم", 21), RankedPlayer(2, "سارا", 17)))
    persian = shown_texts(ranking, "fa", "persian")
    assert persian["21"] == "۲۱" and persian["17"] == "۱۷"
    assert not set(persian["21"] + persian["17"]) & set("0123456789")
    latin = shown_texts(ranking, "fa", None)
    assert latin["21"] == "21" and latin["17"] == "17"  # the default: 0-9
    # English and German keep 0-9, pixel for pixel, whatever the table asks for
    english = RankingScreen(players=(RankedPlayer(1, "Ann", 21),))
    assert shown_texts(english, "en", "persian")["21"] == "21"
    for code in ("en", "de"):
        drawn = render(english, language=code, digits="persian").tobytes()
        assert drawn == render(english, language=code).tobytes()
    assert (
        render(ranking, language="fa", digits="persian").tobytes()
        != render(ranking, language="fa").tobytes()
    )


def test_the_table_profiles_digits_reach_the_screens(tmp_path):
    from hardware.profile import PROFILES, parse_profile

    text = (PROFILES / "full-table.toml").read_text(encoding="utf-8")
    persian = text.replace("[table]\n", '[table]\nlanguage = "fa"\ndigits = "persian"\n', 1)
    profile = parse_profile(persian)
    assert (profile.language, profile.digits) == ("fa", "persian")
    assert parse_profile(text).digits == "latin"
    top = EmulatedTable(tmp_path, GameShelf.for_profile(profile))
    with using("fa"):
        choice = top.companion.controller.screens()["status"]
    assert isinstance(choice, ChoiceScreen)
    shown = top.screens()["status"].tobytes()
    assert shown == render(choice, language="fa", digits="persian").tobytes()
    assert shown != render(choice, language="fa").tobytes()  # its count: ۱/۴, not 1/4
    assert shown_texts(choice, "fa", "persian")["1/4"] == "۱/۴"
    top.close()


def test_a_bad_digits_setting_is_refused_with_a_sentence():
    from firmware.language import DIGITS
    from hardware.profile import DIGITS as PROFILE_DIGITS
    from hardware.profile import PROFILES, ProfileError, parse_profile

    assert DIGITS == PROFILE_DIGITS  # hardware/ cannot import firmware/: kept in step
    text = (PROFILES / "full-table.toml").read_text(encoding="utf-8")
    with pytest.raises(ProfileError, match="digits 'arabic' is not one of latin, persian"):
        parse_profile(text.replace("[table]\n", '[table]\ndigits = "arabic"\n', 1))
    with pytest.raises(LanguageError, match="digits are written latin or persian, not 'roman'"):
        GameShelf(digits="roman")
    with pytest.raises(LanguageError, match="not 'roman'"):
        render(ChoiceScreen("x", ("a",)), digits="roman")


# -- the web servers' refusals (firmware/web/sentences.py) ----------------------------------------
def _server_sources() -> str:
    from pathlib import Path

    import firmware.sim
    import firmware.web

    folders = (Path(firmware.web.__file__).parent, Path(firmware.sim.__file__).parent)
    return "\n".join(p.read_text(encoding="utf-8") for f in folders for p in sorted(f.glob("*.py")))


def _passed_on_sources() -> str:
    """The modules whose sentences the servers pass on (`Said`, a JournalError's code)."""
    from pathlib import Path

    import firmware

    names = ("journal.py", "journal_file.py", "journal_rows.py", "enrollment.py")
    root = Path(firmware.__file__).parent
    return "\n".join(
        (root / name).read_text(encoding="utf-8") for name in (*names, "enrollment_csv.py")
    )


def _refusals(code: str) -> dict[str, str]:
    texts = load(code).texts
    return {
        k.removeprefix("web_refusal."): t for k, t in texts.items() if k.startswith("web_refusal.")
    }


@pytest.mark.parametrize("code", OTHERS)
def test_every_web_refusal_is_in_every_language_with_the_same_placeholders(code):
    english, other = _refusals("en"), _refusals(code)
    assert english and other.keys() == english.keys()
    assert {k: fields(t) for k, t in other.items()} == {k: fields(t) for k, t in english.items()}
    assert {k for k, t in other.items() if t == english[k]} == set()  # none left in English


def test_every_refusal_the_servers_make_has_its_key_and_every_key_is_made():
    import re

    source, passed_on = _server_sources(), _passed_on_sources()
    made = set(re.findall(r"\bsaid\(\s*\"(\w+)\"", source))
    assert made and made - set(_refusals("en")) == set()
    # Said(english, "key", ...) and JournalError(english, "key", ...): the key after the English
    keyed = set(re.findall(r"\"((?:journal|enroll|csv)_\w+)\"", passed_on))
    assert keyed and keyed - set(_refusals("en")) == set()
    source += passed_on
    # a key chosen at run time is written as a string beside its call (history.py's rounds_)
    unused = {key for key in _refusals("en") if f'"{key}"' not in source}
    assert unused == set()
