"""Views that hide what a player may not see, states as JSON, events as JSON."""

from __future__ import annotations

import json
import random

from engine.protocol import event_to_json
from engine.resarcana import (
    RULES,
    current_player,
    events,
    is_terminal,
    random_playout,
    state_from_json,
    state_to_json,
    view,
)
from engine.resarcana.scenario import adjust, deal, finished_game, setup_state, take


def started():
    setup = deal(
        hands=[
            ["seer_orb", "trade_ring", "brazier"],
            ["dragon_heart", "black_skull", "ice_flower"],
        ],
        decks=[["small_flame", "bag_of_gold", "death_bell"]],
    )
    return setup_state(setup)


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    seen = view(started(), 0)
    ann, ben = seen["players"]
    assert ann["hand"] == ["brazier", "seer_orb", "trade_ring"]
    assert "hand" not in ben and ben["hand_size"] == 3
    assert ann["deck"] == 3 and ben["deck"] == 3  # decks: counts only, even one's own
    assert "dragon_heart" not in json.dumps(seen) and "small_flame" not in json.dumps(seen)


def test_the_table_view_shows_no_hand_at_all():
    seen = view(started(), None)
    assert all("hand" not in p for p in seen["players"])
    assert [p["hand_size"] for p in seen["players"]] == [3, 3]
    assert seen["viewer"] is None and seen["current"] == 0
    assert seen["places"] == [
        "calm_temple",
        "death_crypt",
        "dragon_tower",
        "gold_mine",
        "sacred_garden",
    ]
    assert seen["monuments"] == ["monument_1", "monument_2"] and seen["monuments_hidden"] == 4


def test_the_view_shows_essences_vp_tokens_used_cards_and_passes():
    state = adjust(started(), 0, essences={"calm": 3}, tableau=["seer_orb", "gold_mine"])
    state, _ = take(state, 0, "activate", "seer_orb")
    state, _ = take(state, 1, "pass")
    ann, ben = view(state, 1)["players"]
    assert (ann["vp"], ann["tokens"], ann["used"], ann["essences"]["calm"]) == (
        3,
        1,
        ["seer_orb"],
        0,
    )
    assert ben["passed"] and not ann["passed"] and ann["mage"] == "fire_mage"


def test_a_drawn_card_is_hidden_from_the_others():
    state, _ = take(started(), 0, "pass")
    drew = RULES.apply(started(), RULES.legal_actions(started())[-1]).events[1]
    assert event_to_json(events.seen_by(drew, 0))["card"] == "small_flame"
    assert event_to_json(events.seen_by(drew, 1))["card"] is None
    assert event_to_json(events.seen_by(drew, None))["card"] is None
    assert "small_flame" in view(state, 0)["players"][0]["hand"]
    assert "small_flame" not in json.dumps(view(state, 1))


def test_a_finished_game_shows_winners_and_ranks():
    game = finished_game(2, 3)
    seen = view(game["state"], None)
    assert seen["finished"] and seen["current"] is None
    assert seen["winners"] and seen["ranks"].count(1) == len(seen["winners"])
    assert is_terminal(game["state"]) and current_player(game["state"]) is None


def test_states_go_to_json_and_back_unchanged_all_through_a_game():
    game = random_playout(random.Random(8), 4)
    state = RULES.setup(game["setup"])
    for action in game["moves"]:
        data = state_to_json(state)
        assert json.loads(json.dumps(data)) == data
        assert state_from_json(data) == state
        state = RULES.apply(state, action).state
    assert state_from_json(state_to_json(state)) == state


def test_current_player_follows_the_turns():
    state = started()
    assert (current_player(state), is_terminal(state)) == (0, False)
    state, _ = take(state, 0, "pass")
    assert current_player(state) == 1


def test_every_event_of_a_game_is_json():
    game = finished_game(5, 2)
    state = RULES.setup(game["setup"])
    seen = set()
    for action in game["moves"]:
        outcome = RULES.apply(state, action)
        for event in outcome.events:
            data = event_to_json(event)
            assert json.loads(json.dumps(data)) == data
            seen.add(data["kind"])
        state = outcome.state
    assert {"passed", "round_started", "produced", "round_ended", "game_ended"} <= seen
