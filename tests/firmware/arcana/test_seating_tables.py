"""Arcana's seating on other tables: one with fewer pads than the game's stakes says so and
stays at the seats; a German table names the guilds in German while they sit down."""

from __future__ import annotations

from engine.arcana import load_catalog
from firmware.games import GameShelf
from firmware.screens import Arcanum, PromptIcon, PromptScreen, RefusalScreen, StakeScreen, render
from firmware.tabletop import EmulatedTable
from tests.firmware.arcana.conftest import ArcanaController

CATALOG = load_catalog("sample")


def shows(top, role: str, model, language: str = "en") -> bool:
    return top.screens()[role].tobytes() == render(model, language=language).tobytes()


def test_fewer_pads_than_stakes_is_refused_and_the_seats_stay(tmp_path):
    games = GameShelf(pads=("stake-0", "stake-1", "stake-2"))
    with EmulatedTable(tmp_path, games) as top:
        ArcanaController(top).choose()
        top.tap("stake-0", "blades_base")
        top.tap("stake-0", "ferrymen_base")
        top.press("ok")  # two players play on five stakes
        assert shows(top, "status", RefusalScreen("5 stakes need 5 pads; this table has 3"))
        top.wait(4)
        seat_3 = PromptScreen("Tap your guild base, or OK to play with 2", title="Seat 3")
        assert shows(top, "status", seat_3)
        top.tap("stake-0", "thieves_base")  # three play on four: still one pad short
        top.press("ok")
        assert shows(top, "status", RefusalScreen("4 stakes need 4 pads; this table has 3"))
        top.tap("stake-2", "usurers_base")  # the fourth sits down: refused where it was tapped
        assert shows(top, "stake-2", RefusalScreen("5 stakes need 5 pads; this table has 3"))
        assert top.journal.unfinished() is None


def test_a_german_table_names_the_guilds_in_german_while_they_sit(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(language="de")) as top:
        ArcanaController(top).choose()
        top.tap("stake-0", "blades_base")
        seated = PromptScreen("Klingen", title="Platz 1", icon=PromptIcon.NONE)
        assert shows(top, "stake-0", seated, "de")
        top.tap("stake-3", "blades_base")
        assert shows(top, "stake-3", RefusalScreen("Klingen sitzen schon (Platz 1)"), "de")
        asked = PromptScreen("Basiskarte deiner Gilde auflegen", title="Platz 2")
        assert shows(top, "status", asked, "de")


def test_a_reader_that_is_no_pad_of_the_game_has_no_stake(tmp_path):
    games = GameShelf(pads=("stake-0", "stake-1", "stake-2", "stake-3"))  # stake-4 left out
    with EmulatedTable(tmp_path, games) as top:
        ArcanaController(top).choose()
        for guild in ("blades", "ferrymen", "thieves"):
            top.tap("stake-0", f"{guild}_base")
        top.press("ok")  # three players: four stakes, one per pad
        top.tap("stake-4", "m_agent_01")
        assert shows(top, "stake-4", RefusalScreen("No stake on this pad with 3 players"))
        for stake, card in enumerate(("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03")):
            top.tap(f"stake-{stake}", card)
        _, setup = top.journal.setup(top.companion.game_id)
        assert setup["stakes"] == ["m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03"]


def test_buttons_other_than_ok_while_seating_and_ok_while_laying_stakes_change_nothing(table):
    table.choose()
    table.top.tap("stake-0", "blades_base")
    table.top.press("select")  # no refusal, no seat taken
    assert table.shows("status", PromptScreen("Tap your guild base", title="Seat 2"))
    table.top.tap("stake-0", "ferrymen_base")
    table.top.press("ok")
    table.top.tap("stake-0", "m_agent_01")
    table.top.press("ok")  # the stakes are laid by taps: OK leaves the card laid
    found = CATALOG.cards["m_agent_01"]
    laid = StakeScreen(found.name, Arcanum(found.main), found.threshold, (), stake="Stake 1")
    assert table.shows("stake-0", laid)
    asked = PromptScreen("Tap each stake's first card (4 to go)", title="Stakes")
    assert table.shows("status", asked)


def test_a_card_laid_twice_is_named_in_the_catalogs_german(tmp_path):
    import tomllib
    from pathlib import Path

    sample = Path(__file__).resolve().parents[3] / "engine/arcana/catalogs/sample.toml"
    catalog = tomllib.loads(sample.read_text(encoding="utf-8"))
    for card in catalog["cards"]:
        if card["id"] == "m_agent_01":
            card["names"] = {"de": "Musteragent 1"}
    with EmulatedTable(tmp_path, GameShelf(catalog=catalog, language="de")) as top:
        ArcanaController(top).choose()
        top.tap("stake-0", "blades_base")
        top.tap("stake-0", "ferrymen_base")
        top.press("ok")
        top.tap("stake-0", "m_agent_01")
        top.tap("stake-1", "m_agent_01")
        assert shows(top, "stake-1", RefusalScreen("Musteragent 1 liegt in Zone 1"), "de")
