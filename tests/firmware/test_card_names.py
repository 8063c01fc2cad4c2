"""Card names in the game's language (issue 16), on the screens, the undo notices and the
simulator's page: an Arcana catalog's own `names` (the owner's, in any of the table's
languages), else its `name`; Res Arcana's names from the language's `[res_arcana_cards]`."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from quick_table import QuickTable

from engine.arcana import load_catalog
from engine.arcana.names import LANGUAGES
from engine.resarcana import CARDS
from firmware.controllers.arcana import Bot as ArcanaBot
from firmware.controllers.arcana import play_demo_game as play_arcana
from firmware.controllers.resarcana.bot import Bot as ResBot
from firmware.controllers.resarcana.bot import play_demo_game as play_res
from firmware.controllers.resarcana.screens import GAIN, Prompt, player_name, seat_screen
from firmware.games import GameShelf
from firmware.language import codes, load, local_name, res_arcana_name, using
from firmware.web.views import card_info

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "engine/arcana/catalogs/sample.toml"
# An owner's German guild names, other than the rulebook's that de.toml gives the sample.
OWN_GUILDS = {"blades": "Schwerter", "ferrymen": "Fergen", "thieves": "Langfinger",
              "usurers": "Geldleiher"}  # fmt: skip


def german_catalog() -> dict[str, Any]:
    """The sample with every card and guild named in German too (the card's name in capitals)."""
    catalog = tomllib.loads(SAMPLE.read_text(encoding="utf-8"))
    for card in catalog["cards"]:
        card["names"] = {"de": card["name"].upper()}
    for gid, guild in catalog["guilds"].items():
        guild["names"] = {"de": OWN_GUILDS[gid]}
    return catalog


def texts(value: Any) -> list[str]:
    """Every string in a screen model, nested ones included."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        value = [getattr(value, f.name) for f in dataclasses.fields(value)]
    if isinstance(value, list | tuple):
        return [t for item in value for t in texts(item)]
    return []


def shown_texts(table: QuickTable) -> list[str]:
    return [t for _, model in table.shown for t in texts(model)]


def test_the_engine_checks_names_in_the_languages_the_screens_have():
    assert codes() == LANGUAGES


@pytest.mark.parametrize("code", [c for c in codes() if c != "en"])
def test_every_language_names_every_res_arcana_card_and_no_other(code):
    names = load(code).res_arcana_cards
    assert sorted(names) == sorted(CARDS)
    assert all(name.strip() for name in names.values())
    assert len(set(names.values())) == len(names)  # no two cards called alike


def test_english_keeps_the_engines_printed_names():
    assert load("en").res_arcana_cards == {}
    assert res_arcana_name("seer_orb") == "Seer's Orb"


def test_persian_card_names_are_the_source_texts_own_words():
    # as shared/rules/002_6f0dab66392d6a6c.txt writes them (mages, artifacts, places, monuments)
    with using("fa"):
        assert res_arcana_name("shadow_priest") == "کاهن سایه"
        assert res_arcana_name("mirror_of_calm") == "آینهٔ آرامش"
        assert res_arcana_name("seer_orb") == "گوی پیشگو"
        assert res_arcana_name("gold_mine") == "کان طلا"
        assert res_arcana_name("monument_3") == "بنای یادبود 3"


def test_a_catalogs_own_name_comes_before_the_languages_sample_name():
    with using("de"):
        assert local_name("Ferrymen") == "Fährleute"  # de.toml's, for the sample
        assert local_name("Ferrymen", {"de": "Fergen"}) == "Fergen"  # the catalog's own
        assert local_name("Ferrymen", {"fa": "قایقرانان"}) == "Fährleute"
    assert local_name("Ferrymen", {"de": "Fergen"}) == "Ferrymen"


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_an_arcana_game_in_german_shows_the_catalogs_german_names_only(tmp_path, variant):
    catalog = german_catalog()
    with using("de"):
        table = QuickTable(tmp_path, GameShelf(catalog=catalog, language="de"))
        play_arcana(table, ArcanaBot(seed=3, players=4, variant=variant, catalog=catalog))
        table.press("undo")  # an undo notice names the card too
        shown = shown_texts(table)
    english = {card["name"] for card in catalog["cards"]} | {"Klingen", "Fährleute", "Diebe"}
    assert not [t for t in shown if any(name in t for name in english)]
    assert {"Schwerter", "Fergen", "Langfinger", "Geldleiher"} <= set(shown)
    german = {card["names"]["de"] for card in catalog["cards"]}
    assert len(german & set(shown)) > 10  # market cards on the stakes, struggles, bribes


def test_the_same_catalog_in_english_or_persian_shows_its_default_names(tmp_path):
    catalog = german_catalog()
    with using("fa"):  # no Persian names: the default ones
        table = QuickTable(tmp_path, GameShelf(catalog=catalog, language="fa"))
        play_arcana(table, ArcanaBot(seed=3, players=2, catalog=catalog))
        shown = shown_texts(table)
    assert any(t.startswith("Sample ") for t in shown)
    assert not [t for t in shown if "SAMPLE" in t or t in OWN_GUILDS.values()]


@pytest.mark.parametrize("code", ["fa", "de"])
def test_a_res_arcana_game_names_cards_and_mages_in_its_language(tmp_path, code):
    with using(code) as language:
        table = QuickTable(tmp_path, GameShelf(language=code))
        play_res(table, ResBot(seed=2, players=4))
        table.press("undo")
        shown = shown_texts(table)
    english = {card.name for card in CARDS.values()} - {
        c.name for c in CARDS.values() if c.name == language.res_arcana_cards[c.id]
    }
    assert not [t for t in shown if any(name in t for name in english)]
    mages = {language.res_arcana_cards[m] for m, c in CARDS.items() if c.kind == "mage"}
    assert len(mages & set(shown)) == 4  # four players, named by their mages


def test_a_discard_choice_names_the_card_in_the_language():
    table = {"current": 0}
    seat = {"seat": 0, "name": "Fire Mage", "mage": "fire_mage", "essences": {}, "vp": 0,
            "passed": False}  # fmt: skip
    with using("fa"):
        choice = seat_screen(table, seat, Prompt(GAIN, "dragon_heart", "gold"))
        assert choice.title == "قلب اژدها"
        assert player_name(seat) == "جادوگر آتش"
        assert player_name(dict(seat, name="Ann")) == "Ann"  # a name of the player's own
    assert player_name(seat) == "Fire Mage"


def test_the_simulators_card_box_names_cards_in_the_language_of_the_screens():
    games = GameShelf(catalog=german_catalog())
    with using("de"):
        assert card_info("arcana", games, "m_agent_07")["name"] == "SAMPLE AGENT 7"
        assert card_info("res-arcana", games, "seer_orb")["name"] == "Seherkugel"
    assert card_info("arcana", games, "m_agent_07")["name"] == "Sample agent 7"
    assert card_info("res-arcana", games, "seer_orb")["name"] == "Seer's Orb"


def test_a_catalog_with_names_reaches_the_table_through_load_catalog():
    loaded = load_catalog(german_catalog())
    with using("de"):
        assert GameShelf(catalog=german_catalog()).card_name("m_agent_07") == "SAMPLE AGENT 7"
    assert loaded.card_name("m_agent_07") == "Sample agent 7"
