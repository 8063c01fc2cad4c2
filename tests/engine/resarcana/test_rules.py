"""Each rule of `res-arcana-simplified.md`, as a named test (section names in the test names)."""

from __future__ import annotations

import random

import pytest

from engine.protocol import Rejection
from engine.resarcana import (
    RULES,
    Action,
    Position,
    random_setup,
    ranks,
    state_to_json,
    view,
    winners,
)
from engine.resarcana.cards import MAGES, PLACES
from engine.resarcana.essences import CAP
from engine.resarcana.scenario import adjust, deal, everyone_passes, setup_state, take

ALL = ("fire", "life", "calm", "death", "gold")


def stock(state, seat=0):
    return Position(state).essences(seat).as_dict()


def refused(state, player, kind, card=None, gain=None) -> Rejection:
    before = state_to_json(state)
    outcome = RULES.apply(state, Action(player, kind, card, gain))
    assert isinstance(outcome, Rejection), outcome
    assert state_to_json(state) == before
    return outcome


# Essences


def test_essences_each_player_starts_with_one_of_each():
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))
    assert [stock(state, q) for q in range(3)] == [dict.fromkeys(ALL, 1)] * 3


def test_essences_the_supply_is_unlimited():
    state = adjust(setup_state(deal()), 0, essences={"life": 500}, tableau=["boiling_cauldron"])
    state, _ = take(state, 0, "activate", "boiling_cauldron")
    assert stock(state)["life"] == 501


def test_essences_production_stops_each_count_at_the_cap_seat_by_seat():
    # The supply is unlimited, but a count is kept up to CAP (16,383): production that would
    # pass it stops there, for that kind of that seat only, and nothing spills elsewhere.
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))  # fire mage, shadow priest, ...
    state = adjust(state, 0, essences={"fire": 7, "life": 2})
    state = adjust(state, 1, essences={"death": CAP, "gold": CAP - 3, "calm": 5})
    state = adjust(state, 2, essences={"life": CAP})  # forest healer: 1 life, 1 calm
    state, _ = everyone_passes(state)
    assert stock(state, 0) == {"fire": 8, "life": 3, "calm": 0, "death": 0, "gold": 0}
    assert stock(state, 1) == {"fire": 0, "life": 0, "calm": 5, "death": CAP, "gold": CAP - 2}
    assert stock(state, 2) == {"fire": 0, "life": CAP, "calm": 1, "death": 0, "gold": 0}


# Setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_distinct_mages_and_six_distinct_artifacts_each(players):
    setup = random_setup(random.Random(players), players)
    assert len(set(setup["mages"])) == players
    assert set(setup["mages"]) <= {m.id for m in MAGES}
    dealt = [c for seat in range(players) for c in setup["hands"][seat] + setup["decks"][seat]]
    assert len(dealt) == len(set(dealt)) == 6 * players
    assert all(len(h) == 3 for h in setup["hands"]) and all(len(d) == 3 for d in setup["decks"])
    assert sorted(setup["monuments"]) == [f"monument_{n}" for n in range(1, 7)]
    assert 0 <= setup["start_player"] < players


def test_setup_hands_and_decks_are_secret():
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    table = RULES.result(state)  # the record result shows the known hands...
    assert table["players"][0]["hand"] == ["brazier", "seer_orb", "trade_ring"]

    ben = view(state, 1)["players"][0]  # ...but Ben's view of Ann does not
    assert "hand" not in ben and ben["hand_size"] == 3 and ben["deck"] == 3


def test_setup_all_five_places_and_two_face_up_monuments():
    look = Position(setup_state(deal(monuments=[f"monument_{n}" for n in (4, 1, 6, 2, 3, 5)])))
    assert look.places_available() == sorted(p.id for p in PLACES)
    assert look.monuments_face_up() == ["monument_1", "monument_4"]


def test_setup_every_card_starts_ready_and_nothing_is_out():
    state = setup_state(deal(hands=[["chalice_of_life", "brazier", "trade_ring"]]))
    look = Position(state)
    assert (look.used(), look.discarded(), look.first_passer) == ([], [], None)
    state = adjust(state, 0, essences={"life": 1})
    state, _ = take(state, 0, "play", "chalice_of_life")
    assert Position(state).used() == [] and view(state, None)["players"][0]["used"] == []


def test_setup_the_start_player_acts_first():
    state = setup_state(deal(players=("Ann", "Ben", "Cid"), start=2))
    assert Position(state).current == 2
    assert refused(state, 0, "pass").code == "not_your_turn"


# A round


def test_round_no_production_in_the_first_round():
    state = setup_state(deal())
    assert Position(state).round == 1
    assert stock(state) == dict.fromkeys(ALL, 1)


def test_round_every_card_in_front_produces_at_the_start_of_later_rounds():
    state = adjust(
        setup_state(deal()), 0, essences={}, tableau=["brazier", "gold_mine", "monument_1"]
    )
    state, events = everyone_passes(state)
    # fire mage 1 fire 1 life; brazier 1 fire 1 gold; gold mine 1 gold; monuments produce nothing
    assert stock(state) == {"fire": 2, "life": 1, "calm": 0, "death": 0, "gold": 2}
    assert [e["kind"] for e in events][-4:] == [
        "round_ended",
        "round_started",
        "produced",
        "produced",
    ]


def test_round_turns_go_clockwise_from_the_start_player():
    state = setup_state(deal(players=("Ann", "Ben", "Cid", "Dee"), start=2))
    seen = []
    for _ in range(4):
        seen.append(Position(state).current)
        state, _ = take(state, seen[-1], "discard", Position(state).hand(seen[-1])[0], "gold")
    assert seen == [2, 3, 0, 1]


def test_round_a_player_who_passed_takes_no_more_turns():
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))
    state, _ = take(state, 0, "pass")
    state, _ = take(state, 1, "discard", Position(state).hand(1)[0], "gold")
    state, _ = take(state, 2, "discard", Position(state).hand(2)[0], "gold")
    assert Position(state).current == 1  # Ann is skipped
    assert refused(state, 0, "discard", Position(state).hand(0)[0], "gold").code == "passed"


def test_round_ends_when_everyone_has_passed():
    state = setup_state(deal())
    state, _ = take(state, 0, "pass")
    state, _ = take(state, 1, "discard", Position(state).hand(1)[0], "gold")
    assert Position(state).round == 1 and Position(state).current == 1
    state, events = take(state, 1, "pass")
    assert Position(state).round == 2
    assert "round_ended" in [e["kind"] for e in events]


def test_round_end_the_game_ends_when_someone_has_10_vp():
    state = adjust(setup_state(deal()), 1, tableau=["calm_temple", "gold_mine", "sacred_garden"])
    state = adjust(state, 1, tokens=3)  # 3 + 2 + 2 + 3 = 10 VP
    state, _ = take(state, 0, "pass")
    assert not Position(state).finished  # not before the round ends
    state, events = take(state, 1, "pass")
    look = Position(state)
    assert look.finished and look.round == 1
    assert events[-1] == {
        "kind": "game_ended",
        "round": 1,
        "winners": [1],
        "vp": [0, 10],
        "ranks": [2, 1],
    }
    assert RULES.legal_actions(state) == []
    rejection = refused(state, 0, "pass")
    assert (rejection.code, rejection.message) == ("game_over", "The game is over.")


def test_round_end_under_10_vp_the_game_goes_on():
    state = adjust(setup_state(deal()), 1, tableau=["calm_temple", "gold_mine", "sacred_garden"])
    state = adjust(state, 1, tokens=2)  # 9 VP
    state, _ = everyone_passes(state)
    assert not Position(state).finished and Position(state).round == 2


def test_round_end_used_cards_become_ready():
    state = adjust(setup_state(deal()), 0, essences={}, tableau=["stone_armor"])
    state, _ = take(state, 0, "activate", "stone_armor")
    state, _ = take(state, 1, "pass")
    assert refused(state, 0, "activate", "stone_armor").code == "already_used"
    state, _ = take(state, 0, "pass")
    state, _ = take(state, 1, "pass")  # round 2: Ben passed first, starts
    state, _ = take(state, 0, "activate", "stone_armor")
    assert stock(state)["calm"] == 4  # 2 + 2 (fire mage produces no calm)


# Actions


def test_play_an_artifact_from_hand_its_power_is_usable_this_round():
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    state = adjust(state, 0, essences={"calm": 5})
    state, _ = take(state, 0, "play", "seer_orb")
    state, _ = take(state, 1, "pass")
    state, events = take(state, 0, "activate", "seer_orb")
    assert Position(state).vp(0) == 1 and stock(state)["calm"] == 0
    assert [e["kind"] for e in events] == ["activated", "paid", "scored"]


def test_play_an_artifact_not_in_hand_is_refused():
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    rejection = refused(state, 0, "play", "dragon_heart")
    assert (rejection.code, rejection.message) == (
        "not_in_hand",
        "Dragon Heart is not in Ann's hand.",
    )


def test_play_cost_message_names_what_is_missing():
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    rejection = refused(state, 0, "play", "seer_orb")
    assert rejection.message == "Seer's Orb needs 2 calm, you have 1."
    assert refused(state, 0, "play", "brazier").message == "Brazier needs 2 gold, you have 1."


def test_use_a_power_once_per_round():
    state = adjust(setup_state(deal()), 0, essences={"fire": 9}, tableau=["dragon_heart"])
    state, _ = take(state, 0, "activate", "dragon_heart")
    state, _ = take(state, 1, "discard", Position(state).hand(1)[0], "gold")
    rejection = refused(state, 0, "activate", "dragon_heart")
    assert rejection.message == "Dragon Heart has already been used this round."


def test_use_a_power_only_of_a_card_in_front_of_you():
    state = adjust(setup_state(deal()), 1, tableau=["dragon_heart"])
    assert refused(state, 0, "activate", "dragon_heart").code == "not_in_front"
    assert refused(state, 0, "activate", "brazier").code == "wrong_kind"  # no power


def test_buy_a_monument_the_next_hidden_one_is_turned_up():
    order = [f"monument_{n}" for n in (4, 1, 6, 2, 3, 5)]
    state = adjust(setup_state(deal(monuments=order)), 0, essences={"gold": 8})
    assert refused(state, 0, "buy", "monument_6").code == "not_face_up"
    state, events = take(state, 0, "buy", "monument_4")
    assert events[-1] == {"kind": "monument_revealed", "card": "monument_6"}
    assert Position(state).monuments_face_up() == ["monument_1", "monument_6"]
    assert Position(state).vp(0) == 2 and stock(state)["gold"] == 4


def test_buy_a_place_of_power_is_not_replaced():
    state = adjust(setup_state(deal()), 0, essences={"gold": 5})
    state = adjust(state, 1, essences={"gold": 5})
    state, _ = take(state, 0, "buy", "gold_mine")
    assert "gold_mine" not in Position(state).places_available()
    rejection = refused(state, 1, "buy", "gold_mine")
    assert rejection.message == "Gold Mine has already been bought."


def test_buy_a_place_its_power_is_usable_this_round():
    state = adjust(setup_state(deal()), 0, essences={"fire": 5, "death": 2})
    state, _ = take(state, 0, "buy", "dragon_tower")
    state, _ = take(state, 1, "pass")
    state, _ = take(state, 0, "activate", "dragon_tower")
    assert Position(state).vp(0) == 3  # 2 for the tower, 1 token


def test_buy_only_places_and_monuments():
    assert refused(setup_state(deal()), 0, "buy", "seer_orb").code == "wrong_kind"


@pytest.mark.parametrize(("gain", "expected"), [("gold", 2), ("calm", 3), ("fire", 3)])
def test_discard_a_card_for_1_gold_or_2_of_one_other_kind(gain, expected):
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    state, events = take(state, 0, "discard", "brazier", gain)
    assert stock(state)[gain] == expected
    assert Position(state).hand(0) == ["seer_orb", "trade_ring"]
    assert Position(state).discarded() == ["brazier"]
    assert events[0] == {"kind": "discarded", "player": 0, "card": "brazier"}


def test_pass_draws_the_top_card_of_the_deck():
    state = setup_state(deal(decks=[["dragon_heart", "black_skull", "ice_flower"]]))
    state, events = take(state, 0, "pass")
    assert "dragon_heart" in Position(state).hand(0)
    assert Position(state).deck(0) == ["black_skull", "ice_flower"]
    assert events == [
        {"kind": "passed", "player": 0, "first": True},
        {"kind": "drew", "player": 0, "card": "dragon_heart"},
    ]


def test_pass_with_an_empty_deck_draws_nothing():
    state = adjust(setup_state(deal()), 0, deck=[], deck_size=0)
    state, events = take(state, 0, "pass")
    assert [e["kind"] for e in events] == ["passed"]
    assert Position(state).hand_size(0) == 3


def test_pass_the_first_to_pass_starts_the_next_round():
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))
    state, _ = take(state, 0, "discard", Position(state).hand(0)[0], "gold")
    state, events = take(state, 1, "pass")
    assert events[0]["first"] is True
    state, events = take(state, 2, "pass")
    assert events[0]["first"] is False
    state, _ = take(state, 0, "pass")
    look = Position(state)
    assert (look.round, look.start_player, look.current) == (2, 1, 1)


def test_actions_only_on_your_turn():
    state = setup_state(deal())
    rejection = refused(state, 1, "pass")
    assert rejection.message == "It is Ann's turn, not Ben's."
    assert refused(state, 5, "pass").code == "unknown_player"


# Score


def test_score_vp_is_places_plus_monuments_plus_tokens():
    state = adjust(
        setup_state(deal()),
        0,
        tableau=["calm_temple", "death_crypt", "monument_2", "seer_orb"],
        tokens=4,
    )
    assert Position(state).vp(0) == 3 + 1 + 2 + 4


def test_score_equal_vp_share_the_same_rank():
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))
    state = adjust(state, 0, tokens=10)
    state = adjust(state, 2, tokens=10)
    state, events = everyone_passes(state)
    assert winners(state) == [0, 2] and ranks(state) == (1, 3, 1)  # 1, 1, 3: shared first
    assert RULES.result(state)["winners"] == ["Ann", "Cid"]
    assert events[-1]["winners"] == [0, 2]


def test_legal_actions_order_is_stable():
    state = setup_state(deal(hands=[["small_flame", "seer_orb", "trade_ring"]]))
    state = adjust(state, 0, essences={"fire": 1, "gold": 4}, tableau=["stone_armor"])
    listed = [str(a) for a in RULES.legal_actions(state)]
    assert listed[:5] == [
        "p0 play small_flame",
        "p0 play trade_ring",
        "p0 activate stone_armor",
        "p0 buy monument_1",
        "p0 buy monument_2",
    ]
    assert listed[5:10] == [f"p0 discard small_flame {k}" for k in ALL]
    assert listed[-1] == "p0 pass" and len(listed) == 5 + 15 + 1
    assert RULES.legal_actions(state) == RULES.legal_actions(state)


def test_every_legal_action_is_accepted_and_nothing_else_of_the_seat_is():
    state = setup_state(deal(hands=[["small_flame", "seer_orb", "trade_ring"]]))
    state = adjust(state, 0, essences={"fire": 1, "gold": 4, "calm": 2}, tableau=["stone_armor"])
    legal = set(RULES.legal_actions(state))
    from engine.resarcana.actions import ACTIONS

    for action in ACTIONS:
        if action.player == 0:
            accepted = not isinstance(RULES.apply(state, action), Rejection)
            assert accepted == (action in legal), action


# Refusals: each names the rule that stops the action, in words a player reads.


def test_a_seat_beyond_the_table_is_no_player_even_one_the_engine_knows():
    # Seats 2 and 3 exist in a four-player game, not at a two-player table.
    state = setup_state(deal())
    for seat in (2, 3):
        rejection = refused(state, seat, "pass")
        assert (rejection.code, rejection.message) == (
            "unknown_player",
            f"There is no player {seat} at this table.",
        )
    rejection = refused(state, 2, "play", "magic_carpet")  # not even a card
    assert (rejection.code, rejection.message) == (
        "unknown_player",
        "There is no player 2 at this table.",
    )


def test_an_action_with_a_stray_field_is_not_an_action():
    state = setup_state(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    for action in (("pass", "brazier"), ("pass", "magic_carpet"), ("play", "brazier", "gold")):
        rejection = refused(state, 0, *action)
        assert (rejection.code, rejection.message) == (
            "unknown_action",
            "That is not an action.",
        )


def test_a_power_of_a_card_not_in_front_names_whose_it_is_not():
    state = adjust(setup_state(deal()), 0, tableau=["dragon_heart"])
    rejection = refused(state, 0, "activate", "seer_orb")
    assert rejection.message == "Seer's Orb is not in front of Ann."
    state, _ = take(state, 0, "pass")
    rejection = refused(state, 1, "activate", "dragon_heart")
    assert rejection.message == "Dragon Heart is not in front of Ben."


def test_a_power_that_costs_too_much_names_the_power_and_what_is_missing():
    state = adjust(setup_state(deal()), 0, essences={"calm": 2}, tableau=["seer_orb"])
    rejection = refused(state, 0, "activate", "seer_orb")
    assert (rejection.code, rejection.message) == (
        "cannot_afford",
        "The power of Seer's Orb needs 3 calm, you have 2.",
    )


def test_a_place_or_monument_that_costs_too_much_is_refused_by_name():
    state = adjust(setup_state(deal()), 1, essences={"gold": 3})
    state, _ = take(state, 0, "pass")
    assert refused(state, 1, "buy", "monument_1").message == (
        "Monument 1 needs 4 gold, you have 3."
    )
    assert refused(state, 1, "buy", "calm_temple").message == (
        "Calm Temple needs 5 calm, you have 0."  # the 1 gold it also costs is there
    )


def test_a_monument_bought_or_still_hidden_is_not_for_sale():
    state = adjust(setup_state(deal()), 0, essences={"gold": 8})
    state, _ = take(state, 0, "buy", "monument_1")  # monument_3 turns up
    state, _ = take(state, 1, "pass")
    rejection = refused(state, 0, "buy", "monument_1")
    assert (rejection.code, rejection.message) == (
        "already_bought",
        "Monument 1 has already been bought.",
    )
    rejection = refused(state, 0, "buy", "monument_4")
    assert (rejection.code, rejection.message) == ("not_face_up", "Monument 4 is not face up.")


def test_a_power_already_used_is_refused_with_its_own_code():
    state = adjust(setup_state(deal()), 0, essences={"fire": 9}, tableau=["dragon_heart"])
    state, _ = take(state, 0, "activate", "dragon_heart")
    state, _ = take(state, 1, "pass")
    assert refused(state, 0, "activate", "dragon_heart").code == "already_used"


def test_a_player_who_passed_is_told_so_by_name():
    state = setup_state(deal(players=("Ann", "Ben", "Cid")))
    state, _ = take(state, 0, "pass")
    state, _ = take(state, 1, "pass")
    rejection = refused(state, 1, "pass")
    assert (rejection.code, rejection.message) == ("passed", "Ben has passed this round.")


@pytest.mark.parametrize(
    ("action", "code", "message"),
    [
        (
            ("steal", "seer_orb"),
            "unknown_action",
            '"steal" is not an action (play, activate, buy, discard or pass).',
        ),
        (("play", "magic_carpet"), "unknown_card", "'magic_carpet' is not a card of Res Arcana."),
        (("play", ["seer_orb"]), "unknown_card", "['seer_orb'] is not a card of Res Arcana."),
        (
            ("play", "gold_mine"),
            "wrong_kind",
            "Gold Mine is a place of power; only artifacts are played or discarded from hand.",
        ),
        (
            ("discard", "fire_mage", "gold"),
            "wrong_kind",
            "Fire Mage is a mage; only artifacts are played or discarded from hand.",
        ),
        (("activate", "brazier"), "wrong_kind", "Brazier has no power to use."),
        (
            ("buy", "seer_orb"),
            "wrong_kind",
            "Seer's Orb is an artifact; only places of power and monuments are bought.",
        ),
        (
            ("discard", "brazier", "plenty"),
            "bad_params",
            "a discard gains 1 gold or 2 of one other essence (fire, life, calm or death).",
        ),
        (("buy", "gold_mine", "gold"), "unknown_action", "That is not an action."),
        (("buy", "monument_1", "gold"), "unknown_action", "That is not an action."),
        (("activate", "seer_orb", "extra"), "unknown_action", "That is not an action."),
    ],
)
def test_an_action_no_seat_could_ever_take_is_refused_with_what_is_wrong(action, code, message):
    state = adjust(setup_state(deal()), 0, essences=dict.fromkeys(ALL, 9), tableau=["seer_orb"])
    rejection = refused(state, 0, *action)
    assert (rejection.code, rejection.message) == (code, message)


def test_buy_monuments_the_stack_turns_up_one_by_one_until_none_is_left():
    order = [f"monument_{n}" for n in (4, 1, 6, 2, 3, 5)]
    state = adjust(setup_state(deal(monuments=order)), 0, essences={"gold": 24})
    state, _ = take(state, 0, "buy", "monument_4")
    state, _ = take(state, 1, "pass")  # Ann goes on alone
    face_up = [Position(state).monuments_face_up()]
    for card in ("monument_1", "monument_6", "monument_2", "monument_3", "monument_5"):
        state, events = take(state, 0, "buy", card)
        face_up.append(Position(state).monuments_face_up())
    assert face_up == [
        ["monument_1", "monument_6"],
        ["monument_2", "monument_6"],
        ["monument_2", "monument_3"],
        ["monument_3", "monument_5"],
        ["monument_5"],
        [],
    ]
    assert [e["kind"] for e in events] == ["bought", "paid"]  # nothing left to turn up
    assert Position(state).vp(0) == 12 and not [
        a for a in RULES.legal_actions(state) if a.kind == "buy" and a.card.startswith("monument")
    ]
