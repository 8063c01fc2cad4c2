"""Views that hide what a player may not see, states as JSON, events as JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.protocol import event_to_json
from engine.resarcana import (
    RULES,
    Position,
    current_player,
    events,
    is_terminal,
    physical_setup,
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
    assert event_to_json(events.seen_by(drew, 1)) == {"kind": "drew", "player": 0, "card": None}
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


def test_a_whole_player_view_field_by_field():
    # Round 1: Ann buys Monument 1 (Monument 3 turns up), Ben discards Black Skull for gold,
    # both pass (each draws); round 2 (Ann passed first, so she starts): Ann passes again.
    state = adjust(started(), 0, essences={"gold": 4, "calm": 2})
    state, _ = take(state, 0, "buy", "monument_1")
    state, _ = take(state, 1, "discard", "black_skull", "gold")
    state, _ = take(state, 0, "pass")
    state, _ = take(state, 1, "pass")
    state, _ = take(state, 0, "pass")
    ann = {
        "seat": 0,
        "name": "Ann",
        "mage": "fire_mage",
        "vp": 2,
        "tokens": 0,
        "essences": {"fire": 1, "life": 1, "calm": 2, "death": 0, "gold": 0},  # + fire mage
        "tableau": ["monument_1"],
        "used": [],
        "passed": True,
        "hand_size": 5,
        "deck": 1,
        "hand": ["bag_of_gold", "brazier", "seer_orb", "small_flame", "trade_ring"],
    }
    ben = {
        "seat": 1,
        "name": "Ben",
        "mage": "shadow_priest",
        "vp": 0,
        "tokens": 0,
        "essences": {"fire": 1, "life": 1, "calm": 1, "death": 2, "gold": 3},
        "tableau": [],
        "used": [],
        "passed": False,
        "hand_size": 3,
        "deck": 2,
    }
    assert view(state, 0) == {
        "game": "res-arcana",
        "viewer": 0,
        "round": 2,
        "finished": False,
        "current": 1,
        "start_player": 0,
        "first_passer": 0,
        "hands_known": True,
        "places": ["calm_temple", "death_crypt", "dragon_tower", "gold_mine", "sacred_garden"],
        "monuments": ["monument_2", "monument_3"],
        "monuments_hidden": 3,
        "discarded": ["black_skull"],
        "players": [ann, ben],
    }
    ben_sees = view(state, 1)
    assert ben_sees["players"][0] == {k: v for k, v in ann.items() if k != "hand"}
    assert ben_sees["players"][1]["hand"] == Position(state).hand(1)


def test_with_real_cards_the_view_counts_face_up_and_hidden_monuments():
    # The stack is unknown: two monuments are face up until fewer than two are left.
    state = setup_state(physical_setup(deal()))
    seen = view(state, None)
    assert (seen["hands_known"], seen["monuments"], seen["monuments_hidden"]) == (False, 2, 4)
    state = adjust(state, 0, essences={"gold": 20})
    state, _ = take(state, 0, "buy", "monument_1")
    state, _ = take(state, 1, "pass")  # Ann goes on alone
    counts = [(view(state, None)["monuments"], view(state, None)["monuments_hidden"])]
    for n in range(2, 6):
        state, _ = take(state, 0, "buy", f"monument_{n}")
        counts.append((view(state, None)["monuments"], view(state, None)["monuments_hidden"]))
    assert counts == [(2, 3), (2, 2), (2, 1), (2, 0), (1, 0)]


def saved(change) -> dict:
    data = state_to_json(started())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["seats"].pop(), "one seat per player is needed"),
        (lambda d: d.update(discarded=["gold_mine"]), "only artifacts are discarded"),
        (lambda d: d.update(current=2), "no seat 2"),
        (lambda d: d.update(start_player=-1), "no seat -1"),
        (lambda d: d["seats"][0].update(tokens=True), "expected a count, not True"),
        (lambda d: d["seats"][1].update(hand_size=-1), "expected a count, not -1"),
        (lambda d: d["seats"][0]["essences"].update(gold="3"), "expected a count, not '3'"),
        (lambda d: d.update(round=1.0), "expected a count, not 1.0"),
    ],
)
def test_a_saved_state_that_is_not_one_is_refused_with_a_reason(change, reason):
    with pytest.raises(ValueError) as err:
        state_from_json(saved(change))
    assert str(err.value) == reason


def test_a_saved_state_with_tokens_keeps_them_in_the_score():
    state = adjust(started(), 1, tokens=4, tableau=["gold_mine"])
    look = Position(state_from_json(state_to_json(state)))
    assert (look.tokens(1), look.vp(1), look.tokens(0), look.vp(0)) == (4, 6, 0, 0)
