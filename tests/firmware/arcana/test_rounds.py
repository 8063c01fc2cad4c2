"""Round end at the table: each stake shows its struggle, the status sums it up, emptied
stakes ask for their next card; undo and redo at the table."""

from __future__ import annotations

from engine.arcana import load_catalog
from firmware.screens import (
    ArcanaStatusScreen,
    Arcanum,
    EmptyStakeScreen,
    GuildAtStake,
    HandCount,
    RoundResultsScreen,
    StakeScreen,
    Strength,
    StruggleScreen,
)

CARDS = load_catalog("sample").cards

# Round 1: Blades and Ferrymen both reach 3 political at stake 0 (Ferrymen win the tie on
# political), Blades win stake 2, Ferrymen fall short at stake 3.
ROUND_ONE = (
    ("stake-0", "blades_agent_5"),
    ("stake-0", "ferrymen_agent_1"),
    ("stake-2", "blades_agent_6"),
    ("stake-3", "ferrymen_agent_2"),
)
DISCARDS = ("blades_agent_9", "ferrymen_agent_9", "blades_agent_8", "ferrymen_agent_8")


def value(card: str, market: str) -> int:
    return CARDS[card].arcana[CARDS[market].main]


def struggle(market: str, blades: int, ferrymen: int, winner=None, tie="") -> StruggleScreen:
    card = CARDS[market]
    strengths = (Strength("Blades", blades), Strength("Ferrymen", ferrymen))
    return StruggleScreen(card.name, Arcanum(card.main), card.threshold, strengths, winner, tie)


def play_round_one(table) -> None:
    for pad, card in ROUND_ONE:
        table.tap(pad, card)
    for card in DISCARDS:
        table.top.press("select")
        table.tap("stake-1", card)


def test_the_round_ends_by_itself_with_each_struggle_on_its_stake(duel):
    play_round_one(duel)
    tie = struggle(
        "m_agent_01",
        value("blades_agent_5", "m_agent_01"),
        value("ferrymen_agent_1", "m_agent_01"),
        "Ferrymen",
        "Tie-break: political",
    )
    assert duel.shows("stake-0", tie)
    assert duel.shows("stake-1", struggle("m_loc_02", 0, 0))
    won = struggle("m_agent_02", value("blades_agent_6", "m_agent_02"), 0, "Blades")
    assert duel.shows("stake-2", won)
    short = struggle("m_loc_03", 0, value("ferrymen_agent_2", "m_loc_03"))
    assert duel.shows("stake-3", short)
    summary = RoundResultsScreen(1, (Strength("Blades", 1), Strength("Ferrymen", 1)), unwon=3)
    assert duel.shows("status", summary)
    duel.top.press("ok")
    # each emptied stake asks on its own screen, one at a time, in stake order
    assert duel.shows("stake-0", EmptyStakeScreen("Stake 1", waiting=True))
    assert duel.shows("stake-2", EmptyStakeScreen("Stake 3", after="Stake 1"))
    # agents that stay are face up after the struggle; Ferrymen control stake 4 (mark)
    stays = GuildAtStake("Ferrymen", value("ferrymen_agent_2", "m_loc_03"), controls=True)
    card = CARDS["m_loc_03"]
    expected = StakeScreen(card.name, Arcanum(card.main), card.threshold, (stays,), "Stake 4")
    assert duel.shows("stake-3", expected)
    empty = (HandCount("Blades", 0), HandCount("Ferrymen", 0))
    waiting = ArcanaStatusScreen(1, "", empty, "New card on stake 1")
    assert duel.shows("status", waiting)
    duel.refused("stake-2", "m_agent_05", "Reveal the next card on stake 1 first")
    duel.tap("stake-0", "m_agent_05")
    assert duel.shows("stake-2", EmptyStakeScreen("Stake 3", waiting=True))
    duel.tap("stake-2", "m_agent_07")
    full = (HandCount("Blades", 4), HandCount("Ferrymen", 4))
    assert duel.shows("status", ArcanaStatusScreen(2, "Ferrymen", full, "Tap a card to play"))


def test_a_reveal_tap_also_moves_past_the_results(duel):
    play_round_one(duel)
    duel.tap("stake-0", "m_agent_05")
    card = CARDS["m_agent_05"]
    blades = (GuildAtStake("Blades", 0, controls=True),)  # the controller's side, no agents
    assert duel.shows(
        "stake-0", StakeScreen(card.name, Arcanum(card.main), card.threshold, blades, "Stake 1")
    )
    assert duel.shows("stake-2", EmptyStakeScreen("Stake 3", waiting=True))


def test_undo_takes_back_the_round_end_and_redo_plays_it_again(duel):
    play_round_one(duel)
    lines = duel.lines()
    duel.top.press("undo")
    assert duel.lines() == lines[:-1]
    assert duel.state.phase == "play" and duel.state.turn == 1
    one_left = (HandCount("Blades", 0), HandCount("Ferrymen", 1))
    duel.top.wait(4)  # the "Undone" notice fades
    assert duel.shows("status", ArcanaStatusScreen(1, "Ferrymen", one_left, "Tap a card to play"))
    sides = (
        GuildAtStake("Blades", 0, hidden=1, controls=True),
        GuildAtStake("Ferrymen", value("ferrymen_agent_1", "m_agent_01")),
    )
    card = CARDS["m_agent_01"]
    expected = StakeScreen(card.name, Arcanum(card.main), card.threshold, sides, "Stake 1")
    assert duel.shows("stake-0", expected)
    duel.top.press("undo", held=True)
    assert duel.lines() == lines
    assert duel.state.phase == "evaluated"
    duel.top.wait(4)
    assert duel.shows("stake-0", EmptyStakeScreen("Stake 1", waiting=True))
