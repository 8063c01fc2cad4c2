"""The advanced game's choices on the screens: where the militia goes (a tap of the drawn
militia card on a stake's pad) and "under the base?" (OK: yes, Select: no)."""

from __future__ import annotations

import pytest

from engine.arcana import load_catalog
from firmware.screens import (
    ArcanaStatusScreen,
    Arcanum,
    GuildAtStake,
    HandCount,
    PromptIcon,
    PromptScreen,
    RefusalScreen,
    StakeScreen,
)

CARDS = load_catalog("sample").cards


@pytest.fixture
def advanced(table):
    table.seat(variant="advanced")
    return table


def test_a_discarded_relic_asks_where_the_militia_goes(advanced):
    advanced.top.press("select")
    line = advanced.tap("stake-4", "blades_relic")
    assert line == {"player": 0, "action": "discard", "card": "blades_relic"}
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 4))
    asking = ArcanaStatusScreen(1, "Blades", hands, "Militia: tap a stake")
    assert advanced.shows("status", asking)
    advanced.refused("stake-2", "ferrymen_agent_1", "Blades places a militia first")
    advanced.top.press("select")
    assert advanced.shows("status", RefusalScreen("Blades: tap the militia on a stake first"))
    advanced.top.wait(4)
    line = advanced.tap("stake-2", "militia_2")
    assert line == {"player": 0, "action": "militia", "card": "militia_2", "stake": 2}
    card = CARDS["m_agent_02"]
    # face up, though Ferrymen control stake 3 (their side shows, with the mark)
    militia = GuildAtStake("Blades", CARDS["militia_2"].arcana[card.main])
    ferrymen = GuildAtStake("Ferrymen", 0, controls=True)
    sides = (militia, ferrymen)
    expected = StakeScreen(card.name, Arcanum(card.main), card.threshold, sides, "Stake 3")
    assert advanced.shows("stake-2", expected)
    assert advanced.shows("status", ArcanaStatusScreen(1, "Ferrymen", hands, "Tap a card to play"))


def bribe_to_win(table) -> None:
    """Ferrymen take Sample agent 1 from stake 0 by a bribe."""
    table.tap("stake-3", "blades_agent_1")
    table.tap("stake-0", "ferrymen_agent_4")
    table.tap("stake-3", "blades_agent_2")
    table.tap("stake-0", "ferrymen_relic")
    assert "m_agent_01" in table.state.stashable[1]


QUESTION = PromptScreen(
    "Ferrymen: Sample agent 1\nOK: yes  Select: no",
    title="Under the base?",
    icon=PromptIcon.NONE,
    short="Sample agent 1 under base?\nOK: yes  Select: no",
)


def test_ok_puts_a_won_card_under_the_base(advanced):
    bribe_to_win(advanced)
    assert advanced.shows("status", QUESTION)
    line = advanced.tap_button("ok")
    assert line == {"player": 1, "action": "stash", "card": "m_agent_01"}
    assert advanced.state.under_base[1] == ("m_agent_01",)
    hands = (HandCount("Blades", 2), HandCount("Ferrymen", 2))
    reveal = ArcanaStatusScreen(1, "", hands, "New card on stake 1")
    assert advanced.shows("status", reveal)
    advanced.tap("stake-0", "m_agent_05")
    gone = "Sample agent 1 is under the Ferrymen base for good"
    advanced.refused("stake-1", "m_agent_01", gone)


def test_select_keeps_it_and_going_on_needs_no_answer(advanced):
    bribe_to_win(advanced)
    lines = advanced.lines()
    advanced.top.press("select")
    assert advanced.lines() == lines
    hands = (HandCount("Blades", 2), HandCount("Ferrymen", 2))
    assert advanced.shows("status", ArcanaStatusScreen(1, "", hands, "New card on stake 1"))
    advanced.tap("stake-0", "m_agent_05")
    assert advanced.state.under_base[1] == ()
    assert "m_agent_01" in advanced.state.possession[1]


def test_a_card_kept_out_of_the_base_is_not_asked_about_again_while_it_may_still_go(advanced):
    bribe_to_win(advanced)
    advanced.top.press("select")  # no: Ferrymen keep it
    advanced.tap("stake-0", "m_agent_05")  # the next card: it may still go under the base
    assert "m_agent_01" in advanced.state.stashable[1]
    hands = (HandCount("Blades", 2), HandCount("Ferrymen", 2))
    assert advanced.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Tap a card to play"))


def test_a_militia_of_the_second_player_is_theirs(advanced):
    advanced.tap("stake-0", "blades_agent_5")
    advanced.top.press("select")
    advanced.tap("stake-4", "ferrymen_relic")  # Ferrymen discard: their militia comes
    line = advanced.tap("stake-1", "militia_2")
    assert line == {"player": 1, "action": "militia", "card": "militia_2", "stake": 1}


def test_a_power_cut_during_the_under_the_base_question_asks_it_again(tmp_path):
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable
    from tests.firmware.arcana.conftest import ArcanaController

    with EmulatedTable(tmp_path, GameShelf()) as top:
        table = ArcanaController(top)
        table.seat(variant="advanced")
        bribe_to_win(table)
        assert table.shows("status", QUESTION)
    with EmulatedTable(tmp_path, GameShelf()) as top:  # the table comes back
        table = ArcanaController(top)
        assert table.shows("status", QUESTION)
        line = table.tap_button("ok")
        assert line == {"player": 1, "action": "stash", "card": "m_agent_01"}
