"""Physical play: the companion does not see hands, decks or the monument stack.

A player with a card in hand may play or discard any artifact that is not yet in play or
discarded; a pass draws an unknown card; any monument not yet bought may be bought while a
face-up one remains.
"""

from __future__ import annotations

from engine.protocol import Rejection, event_to_json
from engine.records import dumps, load
from engine.resarcana import RULES, Action, Position, physical_setup
from engine.resarcana.cards import ARTIFACTS
from engine.resarcana.scenario import adjust, deal, finished_game, setup_state, take

RICH = {"fire": 9, "life": 9, "calm": 9, "death": 9, "gold": 9}


def table():
    return setup_state(physical_setup(deal(players=("Ann", "Ben", "Cid"))))


def refused(state, *action) -> Rejection:
    outcome = RULES.apply(state, Action(*action))
    assert isinstance(outcome, Rejection)
    return outcome


def test_any_artifact_not_out_may_be_played_from_a_hidden_hand():
    state = adjust(table(), 0, essences=RICH)
    for card in ("dragon_heart", "seer_orb"):  # not dealt to Ann in the explicit deal
        played, events = take(state, 0, "play", card)
        look = Position(played)
        assert look.tableau(0) == [card] and look.hand_size(0) == 2 and look.hand(0) == []
        assert events[0] == {"kind": "played", "player": 0, "card": card}


def test_a_card_in_play_or_discarded_cannot_be_tapped_again():
    state = adjust(table(), 0, essences=RICH)
    state, _ = take(state, 0, "play", "dragon_heart")
    state, _ = take(state, 1, "discard", "seer_orb", "gold")
    state = adjust(state, current=2)
    rejection = refused(state, 2, "play", "dragon_heart")
    assert (rejection.code, rejection.message) == (
        "not_in_hand",
        "Dragon Heart is already in play.",
    )
    rejection = refused(state, 2, "discard", "seer_orb", "gold")
    assert (rejection.code, rejection.message) == (
        "not_in_hand",
        "Seer's Orb is already discarded.",
    )


def test_a_player_with_no_card_in_hand_cannot_play_or_discard():
    state = adjust(table(), 0, hand_size=0, essences=RICH)
    assert refused(state, 0, "play", "brazier").message == "Ann has no card in hand."
    assert refused(state, 0, "discard", "brazier", "gold").code == "empty_hand"
    # 5 places and, with the stack unknown, any of the 6 monuments
    assert [a.kind for a in RULES.legal_actions(state)] == ["buy"] * 11 + ["pass"]


def test_legal_actions_offer_every_artifact_not_out():
    state = adjust(table(), 0, essences=RICH)
    legal = RULES.legal_actions(state)
    plays = [a.card for a in legal if a.kind == "play"]
    discards = [a for a in legal if a.kind == "discard"]
    assert plays == [a.id for a in ARTIFACTS]
    assert len(discards) == 24 * 5
    state, _ = take(state, 0, "play", "brazier")
    state = adjust(state, current=0)
    assert "brazier" not in [a.card for a in RULES.legal_actions(state)]


def test_a_pass_draws_an_unknown_card():
    state, events = take(table(), 0, "pass")
    look = Position(state)
    assert (look.hand_size(0), look.deck_size(0), look.hand(0)) == (4, 2, [])
    assert events[1] == {"kind": "drew", "player": 0, "card": None}


def test_any_monument_while_one_is_face_up_then_none():
    state = table()
    bought = []
    for n in (5, 3, 1, 6, 2, 4):
        state = adjust(state, 0, essences={"gold": 4})
        state = adjust(state, current=0)
        assert Position(state).monuments_face_up() == min(2, 6 - len(bought))
        state, events = take(state, 0, "buy", f"monument_{n}")
        bought.append(n)
        revealed = [e for e in events if e["kind"] == "monument_revealed"]
        assert revealed == (
            [{"kind": "monument_revealed", "card": None}] if len(bought) <= 4 else []
        )
    assert Position(state).vp(0) == 12
    state = adjust(state, 0, essences={"gold": 4})
    state = adjust(state, current=0)
    assert refused(state, 0, "buy", "monument_5").code == "already_bought"


def test_a_dealt_game_replays_in_physical_play_with_the_same_table():
    for seed in range(6):
        game = finished_game(seed * 10, 2 + seed % 3)
        lines = [RULES.encode_action(a) for a in game["moves"]]
        _, state, _ = load(dumps("res-arcana", physical_setup(game["setup"]), lines).splitlines())
        known, seen = RULES.result(game["state"]), RULES.result(state)
        for full, blind in zip(known["players"], seen["players"], strict=True):
            assert blind["hand"] == []
            assert {**full, "hand": []} == blind
        assert (known["round"], known["winners"]) == (seen["round"], seen["winners"])


def test_events_of_physical_play_are_json():
    state = adjust(table(), 0, essences=RICH)
    outcome = RULES.apply(state, Action(0, "buy", "monument_2"))
    assert [event_to_json(e)["kind"] for e in outcome.events] == [
        "bought",
        "paid",
        "monument_revealed",
    ]
