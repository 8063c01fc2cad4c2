"""A turn is one tap: agents (hidden on your own stakes), bribes, locations with their
parameters as taps, discards with Select; anything else is refused and changes nothing."""

from __future__ import annotations

from dataclasses import replace

from engine.arcana import load_catalog
from firmware.screens import (
    ArcanaStatusScreen,
    Arcanum,
    BribeScreen,
    EmptyStakeScreen,
    GuildAtStake,
    HandCount,
    RefusalScreen,
    StakeScreen,
)

CARDS = load_catalog("sample").cards


NAMES = ("Blades", "Ferrymen")


def stake_screen(card: str, stake: int, *guilds: GuildAtStake) -> StakeScreen:
    """Stake `stake` (0-based, shown counted from 1) with these sides; its controller's side
    (two players: Blades stakes 1 and 2, Ferrymen 3 and 4) shows with the mark, agents or not.
    """
    found = CARDS[card]
    label = "Free trade" if stake == 4 else f"Stake {stake + 1}"
    sides = {guild.label: guild for guild in guilds}
    if stake < 4:
        controller = NAMES[stake // 2]
        sides[controller] = replace(
            sides.get(controller, GuildAtStake(controller, 0)), controls=True
        )
    ordered = tuple(sides[name] for name in NAMES if name in sides)
    return StakeScreen(found.name, Arcanum(found.main), found.threshold, ordered, stake=label)


def value(card: str, market: str) -> int:
    """A card's value in the main arcanum of a market card."""
    return CARDS[card].arcana[CARDS[market].main]


def test_an_agent_on_your_own_stake_shows_only_as_hidden(duel):
    line = duel.tap("stake-0", "blades_agent_5")
    assert line == {"player": 0, "action": "agent", "card": "blades_agent_5", "stake": 0}
    hidden = GuildAtStake("Blades", 0, hidden=1)
    assert duel.shows("stake-0", stake_screen("m_agent_01", 0, hidden))
    duel.tap("stake-0", "ferrymen_agent_1")  # Blades' stake: face up for Ferrymen
    seen = GuildAtStake("Ferrymen", value("ferrymen_agent_1", "m_agent_01"))
    assert duel.shows("stake-0", stake_screen("m_agent_01", 0, hidden, seen))
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 3))
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Tap a card to play"))


def test_taps_the_rules_forbid_are_refused_with_the_reason(duel):
    duel.refused("stake-2", "ferrymen_agent_1", "Blades to play")
    duel.refused("stake-2", "blades_relic", "Bribe needs one of your agents here")
    duel.refused("stake-1", "blades_relic", "Only agents can be bribed; stake 2 shows a location")
    duel.refused("stake-3", "task_01", "Tasks stay secret in your hand")
    duel.refused("stake-3", "blades_base", "The base stays in front of you")
    duel.refused("stake-3", "m_agent_01", "Sample agent 1 is the market card of stake 1")
    duel.refused("stake-3", "thieves_agent_1", "Thieves agent 1 belongs to no player here")
    duel.refused("stake-3", "m_agent_05", "No stake is waiting for a card")
    duel.tap("stake-0", "blades_agent_5")
    duel.tap("stake-2", "ferrymen_agent_6")
    duel.refused("stake-1", "blades_agent_5", "That agent is already on stake 1")
    duel.refused("stake-1", "blades_agent_5", "That agent is already on stake 1")
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 3))
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Tap a card to play"))


def test_a_pad_without_a_stake_refuses_agents(table):
    table.seat(
        ("blades", "ferrymen", "thieves"), ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03")
    )
    table.refused("stake-4", "blades_agent_1", "No stake on this pad with 3 players")


def test_a_bribe_shows_its_value_and_the_stake_asks_for_its_next_card(duel):
    duel.tap("stake-2", "blades_agent_4")
    duel.tap("stake-3", "ferrymen_agent_1")
    line = duel.tap("stake-2", "blades_relic")
    assert line == {"player": 0, "action": "bribe", "card": "blades_relic", "stake": 2}
    paid = CARDS["blades_relic"].arcana["financial"] + CARDS["blades_agent_4"].arcana["financial"]
    needed = CARDS["m_agent_02"].arcana["financial"]
    assert duel.shows("stake-2", BribeScreen("Sample agent 2", "Blades", paid, needed))
    assert "m_agent_02" in duel.state.possession[0]
    hands = (HandCount("Blades", 2), HandCount("Ferrymen", 3))
    reveal = "New card on stake 3"
    assert duel.shows("status", ArcanaStatusScreen(1, "", hands, reveal))
    duel.refused("stake-3", "m_agent_05", "Reveal the next card on stake 3 first")
    duel.refused("stake-0", "ferrymen_agent_2", "Reveal the next card on stake 3 first")
    duel.top.press("select")
    assert duel.shows("status", RefusalScreen("Tap the new card on stake 3 first"))
    duel.top.wait(4)
    duel.top.press("ok")  # the bribe has been seen
    assert duel.shows("stake-2", EmptyStakeScreen("Stake 3", waiting=True))
    line = duel.tap("stake-2", "m_agent_05")
    assert line == {"action": "reveal", "stake": 2, "card": "m_agent_05"}
    assert duel.shows("stake-2", stake_screen("m_agent_05", 2))
    assert duel.shows("status", ArcanaStatusScreen(1, "Ferrymen", hands, "Tap a card to play"))


def test_swapping_stakes_asks_for_the_two_stakes_as_taps(duel):
    duel.tap("stake-0", "blades_agent_5")
    before = duel.lines()
    duel.top.tap("stake-4", "ferrymen_location")  # a location tapped anywhere starts it
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 4))
    asking = ArcanaStatusScreen(1, "Ferrymen", hands, "Swap: tap the 1st stake")
    assert duel.shows("status", asking)
    duel.top.tap("stake-1", "ferrymen_location")
    asking = ArcanaStatusScreen(1, "Ferrymen", hands, "Swap: tap the 2nd stake")
    assert duel.shows("status", asking)
    duel.refused(
        "stake-1", "ferrymen_location", "Swapping needs two different stakes", prompting=True
    )
    duel.top.press("select")
    assert duel.shows("status", RefusalScreen("Finish the location, or Undo to cancel it"))
    assert duel.lines() == before
    line = duel.tap("stake-3", "ferrymen_location")
    assert line == {
        "player": 1,
        "action": "location",
        "card": "ferrymen_location",
        "params": {"a": 1, "b": 3},
    }
    assert duel.shows("stake-1", stake_screen("m_loc_03", 1))
    assert duel.shows("stake-3", stake_screen("m_loc_02", 3))


def test_moving_an_agent_asks_for_the_agent_then_its_new_stake(duel):
    duel.tap("stake-0", "blades_agent_5")
    duel.tap("stake-0", "ferrymen_agent_1")
    duel.top.tap("stake-2", "blades_location")
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 3))
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Move: tap your agent"))
    duel.refused(
        "stake-2",
        "ferrymen_agent_1",
        "Ferrymen agent 1 is not one of your agents on a stake",
        prompting=True,
    )
    duel.top.tap("stake-4", "blades_agent_5")
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Move: tap new stake"))
    duel.refused("stake-0", "blades_agent_5", "That agent is already on stake 1", prompting=True)
    line = duel.tap("stake-2", "blades_agent_5")
    assert line["params"] == {"card": "blades_agent_5", "to": 2}
    moved = GuildAtStake("Blades", value("blades_agent_5", "m_agent_02"))  # face up there
    assert duel.shows("stake-2", stake_screen("m_agent_02", 2, moved))
    ferrymen = GuildAtStake("Ferrymen", value("ferrymen_agent_1", "m_agent_01"))
    assert duel.shows("stake-0", stake_screen("m_agent_01", 0, ferrymen))


def test_a_location_with_nothing_to_move_is_refused_before_asking(duel):
    duel.refused(
        "stake-1", "blades_location", "None of your agents is on a stake with somewhere to go"
    )


def test_select_then_a_tap_discards_and_select_again_cancels(duel):
    duel.top.press("select")
    hands = (HandCount("Blades", 4), HandCount("Ferrymen", 4))
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Discard: tap the card"))
    duel.top.press("select")
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Tap a card to play"))
    duel.top.press("select")
    line = duel.tap("stake-3", "blades_agent_9")
    assert line == {"player": 0, "action": "discard", "card": "blades_agent_9"}
    duel.tap("stake-3", "ferrymen_agent_9")
    played = "Blades agent 9 was played or came back this round; it can be played next round"
    duel.refused("stake-0", "blades_agent_9", played)


def test_reset_prompt_drops_a_half_entered_location_or_discard(duel):
    """What the companion calls after an undo: nothing half entered survives it."""
    duel.tap("stake-0", "blades_agent_5")
    duel.tap("stake-2", "ferrymen_agent_6")
    duel.top.tap("stake-1", "blades_location")
    duel.top.tap("stake-1", "blades_agent_5")  # the agent to move: now the stake is asked
    assert duel.controller.prompting()
    duel.controller.reset_prompt()
    assert not duel.controller.prompting()
    duel.top.press("select")
    assert duel.controller.prompting()
    duel.controller.reset_prompt()
    duel.top.companion.redraw()
    hands = (HandCount("Blades", 3), HandCount("Ferrymen", 3))
    assert duel.shows("status", ArcanaStatusScreen(1, "Blades", hands, "Tap a card to play"))
    line = duel.tap("stake-1", "blades_agent_4")  # a plain agent again, not a discard
    assert line == {"player": 0, "action": "agent", "card": "blades_agent_4", "stake": 1}
