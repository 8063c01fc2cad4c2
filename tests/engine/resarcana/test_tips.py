"""The four tips at the end of the source rules ("نکته‌ها"), played out as scenarios."""

from __future__ import annotations

from engine.resarcana import RULES, Action, Position
from engine.resarcana.scenario import adjust, deal, everyone_passes, setup_state, take


def total(state, seat=0) -> int:
    return sum(Position(state).essences(seat).counts())


def test_tip_play_producers_early_their_production_accumulates():
    """Healing Spring played in round 1 beats the same card played in round 3."""
    setup = deal(hands=[["healing_spring", "seer_orb", "trade_ring"]])
    start = adjust(setup_state(setup), 0, essences={"life": 3})

    early, _ = take(start, 0, "play", "healing_spring")
    late = start
    for round_ in (1, 2, 3, 4):
        if round_ == 3:
            late, _ = take(late, 0, "play", "healing_spring")
        early, _ = everyone_passes(early)
        late, _ = everyone_passes(late)
    life = (Position(early).essences(0).life, Position(late).essences(0).life)
    # fire mage: +1 life a round (4 rounds); the spring: +2 from each round after its play
    assert life == (4 + 2 * 4, 4 + 2 * 2)


def test_tip_activate_vp_powers_every_round_each_use_is_1_vp():
    state = adjust(setup_state(deal()), 0, essences={"fire": 3}, tableau=["dragon_heart"])
    vps = []
    for _ in range(4):
        if Position(state).current == 1:
            state, _ = take(state, 1, "pass")  # Ben has nothing to do
        state, _ = take(state, 0, "activate", "dragon_heart")
        vps.append(Position(state).vp(0))
        state, _ = everyone_passes(state)
    # the heart produces 2 fire and the fire mage 1 each round: enough to pay 1 fire a round
    assert vps == [1, 2, 3, 4]
    assert Position(state).tokens(0) == 4


def test_tip_discard_a_card_you_do_not_need_for_the_2_essences_you_need():
    state = setup_state(deal(hands=[["seer_orb", "death_bell", "trade_ring"]]))
    refused = RULES.apply(state, Action(0, "play", "seer_orb"))
    assert refused.message == "Seer's Orb needs 2 calm, you have 1."
    state, events = take(state, 0, "discard", "death_bell", "calm")  # 1 + 2 calm
    assert events[1]["essences"]["calm"] == 2
    state, _ = take(state, 1, "pass")
    state, _ = take(state, 0, "play", "seer_orb")
    assert "seer_orb" in Position(state).tableau(0)


def test_tip_pass_early_to_draw_a_card_and_start_the_next_round():
    setup = deal(
        players=("Ann", "Ben", "Cid"),
        decks=[["dragon_heart", "black_skull", "ice_flower"]],
        start=1,
    )
    state = setup_state(setup)
    state, _ = take(state, 1, "discard", Position(state).hand(1)[0], "gold")
    state, _ = take(state, 2, "discard", Position(state).hand(2)[0], "gold")
    state, _ = take(state, 0, "pass")  # Ann, with nothing useful to do, passes first
    assert Position(state).hand_size(0) == 4 and "dragon_heart" in Position(state).hand(0)
    state, _ = everyone_passes(state)
    look = Position(state)
    assert (look.round, look.start_player, look.current) == (2, 0, 0)
