"""What the sensible bot (`sensible_action`) prefers in concrete positions.

Its rule (engine/arcana/playout.py): a bribe that wins is worth 10 + the card's VP, a failed
one -5; a placement that wins a stake 5 + VP less 0.3 per point over the threshold, one that
brings the stake within 2 points 1 + strength / (1 + gap), one further off -0.5 (the agent stays
home); a location without effect 0.5, a swap 0.3; discarding a location 0.2, an advanced
game's relic 2.5 (it brings militia), anything else 0. Won relics go under the base first.

Positions are the test catalog's (conftest): Ann (seat 0) is to play; guild agents have 1 in
every arcanum, guild relics financial 2, market agents need political 3 and financial 4 (3 VP).
Each choice is asked with several seeds: a tie would show up as a different answer.
"""

from __future__ import annotations

import random
from typing import Any

from engine.arcana import Action, sensible_action, state_from_json, state_to_json

SEEDS = range(6)


def position(game, ready: list[str], agents: dict[int, list[str]] | None = None, **kwargs: Any):
    """Ann to play with `ready` in hand and her `agents` face up on stakes; Ben's hand as dealt."""
    g = game(**kwargs)
    data = state_to_json(g.state)
    data["ready"][0] = sorted(ready)
    placed = [card for cards in (agents or {}).values() for card in cards]
    data["possession"][0] = sorted(set(ready) | set(placed))
    for stake, cards in (agents or {}).items():
        data["stakes"][stake]["agents"][0] = [[card, False] for card in cards]
    return state_from_json(data)


def choices(state) -> set[Action]:
    return {sensible_action(state, random.Random(seed)) for seed in SEEDS}


def test_a_bribe_is_made_only_when_it_takes_the_card(game):
    """Relic 2 + agent 1 is 3 of the 4 needed: the relic is discarded instead. With an agent of
    financial 2 there the bribe reaches 4 and is made."""
    failing = position(game, ["blades_relic"], {0: ["blades_agent_1"]})
    assert choices(failing) == {Action("discard", 0, "blades_relic")}
    rich = {"blades_agent_1": {"arcana": {"financial": 2}}}
    winning = position(game, ["blades_relic"], {0: ["blades_agent_1"]}, changes=rich)
    assert choices(winning) == {Action("bribe", 0, "blades_relic", 0)}


def test_a_sure_bribe_outweighs_a_placement_win_unless_the_placed_card_is_worth_far_more(game):
    """Bribing stake 0's 3-VP card (13) against placing an agent of political 4 on stake 1,
    threshold 3, one point over: its card of 8 VP is worth 12.7 (bribe), of 9 VP 13.7 (placed)."""
    for vp, best in [
        (8, Action("bribe", 0, "blades_relic", 0)),
        (9, Action("agent", 0, "blades_agent_2", 1)),
    ]:
        changes = {
            "blades_agent_1": {"arcana": {"financial": 2}},
            "blades_agent_2": {"arcana": {"political": 4}},
            "m_agent_02": {"vp": vp},
        }
        state = position(
            game, ["blades_relic", "blades_agent_2"], {0: ["blades_agent_1"]}, changes=changes
        )
        assert choices(state) == {best}, vp


def test_a_location_without_effect_is_played_before_a_swap_and_a_swap_before_a_discard(game):
    """Ann (ferrymen: a swap) has won a market location without effect: she plays that one
    (0.5) rather than swap two stakes (0.3) or discard either (0.2); with the swap alone she
    swaps rather than discard it."""
    both = position(game, ["ferrymen_location", "m_loc_01"], guilds=("ferrymen", "blades"))
    assert choices(both) == {Action("location", 0, "m_loc_01")}
    swap = position(game, ["ferrymen_location"], guilds=("ferrymen", "blades"))
    assert {a.kind for a in choices(swap)} == {"location"}
    assert all(dict(a.params).keys() == {"a", "b"} for a in choices(swap))


def test_an_agent_goes_out_when_it_brings_a_stake_within_two_points_else_it_stays_home(game):
    """Thieves' location has no effect (0.5). An agent of 1 on an empty stake of threshold 3
    leaves it 2 short (1 + 1/3): placed. With every threshold 4 it would be 3 short: kept home,
    the location is played."""
    ready = ["thieves_location", "thieves_agent_1"]
    near = position(game, ready, guilds=("thieves", "blades"))
    placed = choices(near)
    assert {(a.kind, a.card) for a in placed} == {("agent", "thieves_agent_1")}
    assert len({a.stake for a in placed}) > 1  # every stake is as good: the seed picks one
    far = {f"m_agent_{n:02d}": {"arcana": {"political": 4}} for n in range(1, 6)}
    state = position(game, ready, guilds=("thieves", "blades"), changes=far)
    assert choices(state) == {Action("location", 0, "thieves_location")}


def test_a_player_with_one_legal_action_takes_it(game):
    """A relic with no agent of hers anywhere to bribe with: discarding it is all she can do."""
    state = position(game, ["blades_relic"])
    assert choices(state) == {Action("discard", 0, "blades_relic")}


def test_won_relics_go_under_the_base_first_and_only_her_own(game):
    """In the advanced game a won relic is stashed (a thinner deck) before anything else; a won
    agent is not, nor is another player's relic stashed on her turn."""
    state = position(game, ["blades_agent_1"], variant="advanced")
    data = state_to_json(state)
    data["stashable"] = [["m_agent_01"], ["m_relic_01"]]
    others = state_from_json(data)
    assert all(a.kind != "stash" for a in choices(others))
    data["stashable"][0] = ["m_agent_01", "m_relic_02"]
    assert choices(state_from_json(data)) == {Action("stash", 0, "m_relic_02")}


def test_militia_goes_where_it_wins_a_stake(game):
    """Ann's two agents of political 1 on stake 4 need one more: the militia wins it there."""
    state = position(
        game, ["blades_agent_3"], {4: ["blades_agent_1", "blades_agent_2"]}, variant="advanced"
    )
    data = state_to_json(state)
    data["militia_due"] = 0
    data["militia_deck"] = ["militia_1"]
    assert choices(state_from_json(data)) == {Action("militia", 0, "militia_1", 4)}
