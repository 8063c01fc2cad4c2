"""Setting up Arcana by taps: seats in order, first market cards, secret kept tasks."""

from __future__ import annotations

from engine.arcana import load_catalog
from firmware.screens import Arcanum, PromptIcon, PromptScreen, RefusalScreen, StakeScreen

CATALOG = load_catalog("sample")


def stake_card(card: str, label: str) -> StakeScreen:
    found = CATALOG.cards[card]
    return StakeScreen(found.name, Arcanum(found.main), found.threshold, (), stake=label)


def test_players_seat_in_order_and_ok_starts_with_two(table):
    table.choose()
    assert table.shows("status", PromptScreen("Tap your guild base", title="Seat 1"))
    table.top.tap("stake-3", "ferrymen_base")
    table.top.tap("stake-0", "blades_base")
    assert table.shows(
        "status", PromptScreen("Tap your guild base, or OK to play with 2", title="Seat 3")
    )
    # who is seated so far shows at once, seat 1 on the first pad
    assert table.shows("stake-0", PromptScreen("Ferrymen", title="Seat 1", icon=PromptIcon.NONE))
    assert table.shows("stake-1", PromptScreen("Blades", title="Seat 2", icon=PromptIcon.NONE))
    table.top.press("ok")
    assert table.shows(
        "status", PromptScreen("Tap each stake's first card (5 to go)", title="Stakes")
    )
    assert table.shows("stake-2", PromptScreen("Tap the first card", title="Stake 3"))
    assert table.shows("stake-4", PromptScreen("Tap the first card", title="Free trade"))
    for stake, card in enumerate(table.STAKES):
        table.top.tap(f"stake-{stake}", card)
    journal = table.top.companion.journal
    game, setup = journal.setup(table.top.companion.game_id)
    assert game == "arcana"
    assert setup == {
        "catalog": "sample",
        "variant": "basic",
        "players": [
            {"name": "Ferrymen", "guild": "ferrymen"},
            {"name": "Blades", "guild": "blades"},
        ],
        "start_player": 0,
        "stakes": list(table.STAKES),
        "language": "en",  # the chooser's, kept so a resumed game shows the same language
    }


def test_seating_refuses_what_is_not_a_free_guild_base(table):
    table.choose()
    table.top.tap("stake-1", "blades_agent_1")
    assert table.shows("stake-1", RefusalScreen("Seat the players first: tap your guild base"))
    table.top.press("ok")
    assert table.shows("status", RefusalScreen("Two players at least: tap your guild base"))
    table.top.tap("stake-0", "blades_base")
    table.top.tap("stake-2", "blades_base")
    assert table.shows("stake-2", RefusalScreen("Blades are seated already (seat 1)"))
    table.top.wait(4)
    assert table.shows("status", PromptScreen("Tap your guild base", title="Seat 2"))
    assert table.top.companion.game_id is None


def test_the_fourth_player_starts_the_stakes_at_once(table):
    table.choose()
    for guild in ("usurers", "thieves", "blades", "ferrymen"):
        table.top.tap("stake-0", f"{guild}_base")
    assert table.shows(
        "status", PromptScreen("Tap each stake's first card (5 to go)", title="Stakes")
    )


def test_stakes_take_market_cards_once_and_a_second_card_is_refused(table):
    table.choose()
    for guild in ("blades", "ferrymen", "thieves"):
        table.top.tap("stake-0", f"{guild}_base")
    table.top.press("ok")  # three players: four stakes, stake 3 is free trade
    assert table.shows("stake-3", PromptScreen("Tap the first card", title="Free trade"))
    unused = PromptScreen("No stake here with 3 players", icon=PromptIcon.NONE)
    assert table.shows("stake-4", unused)
    table.top.tap("stake-4", "m_agent_01")
    assert table.shows("stake-4", RefusalScreen("No stake on this pad with 3 players"))
    table.top.tap("stake-0", "blades_agent_1")
    assert table.shows("stake-0", RefusalScreen("Tap the first market card of this stake"))
    table.top.tap("stake-0", "m_agent_01")
    table.top.tap("stake-1", "m_agent_01")
    name = CATALOG.cards["m_agent_01"].name
    assert table.shows("stake-1", RefusalScreen(f"{name} lies on stake 1"))
    table.top.wait(4)
    assert table.shows("stake-0", stake_card("m_agent_01", "Stake 1"))
    table.top.tap("stake-0", "m_loc_02")  # a second card is refused, the first stays
    taken = "Stake 1 has its card: tap that card again to take it back"
    assert table.shows("stake-0", RefusalScreen(taken))
    table.top.wait(4)
    assert table.shows("stake-0", stake_card("m_agent_01", "Stake 1"))
    table.top.tap("stake-0", "m_agent_01")  # a mistake: taken back off, then the right card
    assert table.shows("stake-0", PromptScreen("Tap the first card", title="Stake 1"))
    table.top.tap("stake-0", "m_loc_02")
    assert table.shows("stake-0", stake_card("m_loc_02", "Stake 1"))
    for stake, card in enumerate(("m_agent_01", "m_agent_02", "m_loc_03"), start=1):
        table.top.tap(f"stake-{stake}", card)
    _, setup = table.top.companion.journal.setup(table.top.companion.game_id)
    assert setup["stakes"] == ["m_loc_02", "m_agent_01", "m_agent_02", "m_loc_03"]


def test_advanced_tasks_are_kept_in_seat_order_and_never_shown(table):
    table.choose("advanced")
    table.top.tap("stake-0", "blades_base")
    table.top.tap("stake-0", "ferrymen_base")
    table.top.press("ok")
    for stake, card in enumerate(table.STAKES):
        table.top.tap(f"stake-{stake}", card)
    assert table.shows(
        "status", PromptScreen("Tap your kept task cards", title="Blades: 0/2 tasks")
    )
    table.top.tap("stake-3", table.TASKS[0][0])
    asked = PromptScreen("Tap your kept task cards", title="Blades: 1/2 tasks")
    assert table.shows("status", asked)
    table.top.tap("stake-3", table.TASKS[0][0])
    assert table.shows("stake-3", RefusalScreen("That task is kept already"))
    table.top.tap("stake-2", "m_agent_05")
    assert table.shows("stake-2", RefusalScreen("Tap your kept task cards"))
    table.top.wait(4)
    # no screen names a kept task: each shows what it showed before the task was tapped
    for stake, card in enumerate(table.STAKES):
        label = "Free trade" if stake == 4 else f"Stake {stake + 1}"
        assert table.shows(f"stake-{stake}", stake_card(card, label))
    table.top.tap("stake-0", table.TASKS[0][1])
    assert table.shows(
        "status", PromptScreen("Tap your kept task cards", title="Ferrymen: 0/2 tasks")
    )
    for task in table.TASKS[1]:
        table.top.tap("stake-1", task)
    _, setup = table.top.companion.journal.setup(table.top.companion.game_id)
    assert setup["variant"] == "advanced"
    assert setup["tasks"] == [sorted(kept) for kept in table.TASKS]


def test_a_res_arcana_card_is_refused_during_the_setup(table):
    table.choose()
    table.top.tap("stake-2", "seer_orb")  # the chooser's registry knows both games' cards
    assert table.shows("stake-2", RefusalScreen("Not an Arcana card"))
    table.top.wait(4)
    assert table.shows("status", PromptScreen("Tap your guild base", title="Seat 1"))
