"""Playing Res Arcana at the table: taps play, use and buy; OK passes; Select discards with
a gain chosen on the screen. Refusals carry the engine's sentence to the tapping pad and
change nothing; the round's end is shown until the next tap or press."""

from __future__ import annotations

from firmware.controllers.resarcana import GAINS
from firmware.screens import (
    ChoiceScreen,
    Essence,
    Essences,
    ProductionScreen,
    PromptScreen,
    RefusalScreen,
    ResStatusScreen,
    SeatScreen,
    Strength,
    VictoryCheckScreen,
    render,
)

ONE_EACH = Essences(1, 1, 1, 1, 1)
GAIN_LABELS = ("1 gold", "2 fire", "2 life", "2 calm", "2 death")


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def shows(top, role: str, model) -> bool:
    return same(top.screens()[role], render(model))


def lines(top) -> list[dict]:
    return top.journal.lines(top.companion.game_id)


def snapshot(top):
    """What must not change on a refusal: journal lines, engine state, the other screens."""
    return lines(top), top.companion.controller.state


def test_a_card_from_hand_is_played_and_both_seats_update(duel):
    duel.tap("stake-0", "chalice_of_life")
    assert lines(duel) == [{"player": 0, "action": "play", "card": "chalice_of_life"}]
    paid = Essences(fire=1, life=0, calm=1, death=1, gold=1)
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", paid, 0))
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0, your_turn=True))


def test_a_card_in_front_uses_its_power_once_a_round(duel):
    duel.tap("stake-0", "stone_armor")  # pays 1 gold and 1 calm
    duel.press("ok")  # Shadow Priest passes
    duel.tap("stake-0", "stone_armor")  # free: 2 calm
    assert lines(duel)[-1] == {"player": 0, "action": "activate", "card": "stone_armor"}
    gained = Essences(fire=1, life=1, calm=2, death=1, gold=0)
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", gained, 0, your_turn=True))
    before = snapshot(duel)
    duel.tap("stake-0", "stone_armor")
    assert shows(duel, "stake-0", RefusalScreen("Stone Armor has already been used this round."))
    assert snapshot(duel) == before


def test_a_tap_out_of_turn_or_on_an_empty_seat_is_refused_and_changes_nothing(duel):
    before = snapshot(duel)
    status = duel.screens()["status"]
    duel.tap("stake-1", "seer_orb")
    assert shows(duel, "stake-1", RefusalScreen("It is Forest Healer's turn, not Shadow Priest's."))
    duel.tap("stake-3", "seer_orb")
    assert shows(duel, "stake-3", RefusalScreen("Nobody sits at this pad"))
    assert snapshot(duel) == before
    assert same(duel.screens()["status"], status)
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", ONE_EACH, 0, your_turn=True))
    duel.wait(4)
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0))


def test_what_cannot_be_paid_or_used_is_refused_with_the_engines_sentence(duel):
    before = snapshot(duel)
    duel.tap("stake-0", "seer_orb")
    assert shows(duel, "stake-0", RefusalScreen("Seer's Orb needs 2 calm, you have 1."))
    duel.tap("stake-0", "gold_mine")
    assert shows(duel, "stake-0", RefusalScreen("Gold Mine needs 5 gold, you have 1."))
    duel.tap("stake-0", "forest_healer")
    assert shows(duel, "stake-0", RefusalScreen("Forest Healer has no power to use."))
    duel.tap("stake-0", "chalice_of_life")
    duel.tap("stake-1", "chalice_of_life")
    assert shows(duel, "stake-1", RefusalScreen("Chalice of Life is already in play."))
    assert lines(duel) == [*before[0], {"player": 0, "action": "play", "card": "chalice_of_life"}]


def test_ok_passes_and_the_last_pass_shows_production_and_the_10_vp_check(duel):
    duel.press("ok")
    assert lines(duel) == [{"player": 0, "action": "pass"}]
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", ONE_EACH, 0, passed=True))
    duel.press("ok")
    check = VictoryCheckScreen(1, (Strength("Forest Healer", 0), Strength("Shadow Priest", 0)))
    assert shows(duel, "status", check)
    assert shows(duel, "stake-0", ProductionScreen("Forest Healer", 2, Essences(life=1, calm=1)))
    assert shows(duel, "stake-1", ProductionScreen("Shadow Priest", 2, Essences(death=1, gold=1)))
    duel.wait(10)  # shown until the next tap or press, not for a time
    assert shows(duel, "status", check)
    duel.tap("stake-1", "seer_orb")  # Forest Healer passed first and starts round 2
    assert shows(duel, "stake-1", RefusalScreen("It is Forest Healer's turn, not Shadow Priest's."))
    healer = Essences(fire=1, life=2, calm=2, death=1, gold=1)
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", healer, 0, your_turn=True))


def test_select_then_a_tap_discards_and_select_cycles_the_gain(duel):
    duel.press("select")
    discard = PromptScreen("Tap the card to discard (Select: cancel)", title="Discard")
    assert shows(duel, "stake-0", discard)
    duel.tap("stake-0", "black_skull")
    duel.press("select")
    duel.tap("stake-0", "death_bell")  # changed their mind: this card, from the first gain
    assert shows(duel, "stake-0", ChoiceScreen("Death Bell", GAIN_LABELS, 0))
    for _ in range(GAINS.index("calm")):
        duel.press("select")
    assert shows(duel, "stake-0", ChoiceScreen("Death Bell", GAIN_LABELS, 3))
    assert lines(duel) == []
    duel.press("ok")
    assert lines(duel) == [
        {"player": 0, "action": "discard", "card": "death_bell", "gain": {"calm": 2}}
    ]
    gained = Essences(fire=1, life=1, calm=3, death=1, gold=1)
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", gained, 0))


def test_a_discard_refuses_cards_not_in_hand_and_select_cancels_it(duel):
    duel.tap("stake-0", "chalice_of_life")
    before = snapshot(duel)
    duel.press("select")
    duel.tap("stake-1", "chalice_of_life")
    assert shows(duel, "stake-1", RefusalScreen("Chalice of Life is already in play."))
    duel.tap("stake-0", "seer_orb")
    assert shows(duel, "stake-0", RefusalScreen("It is Shadow Priest's turn, not Forest Healer's."))
    duel.press("ok")
    assert shows(duel, "stake-1", RefusalScreen("Tap the card to discard, or Select to cancel"))
    duel.wait(4)
    discard = PromptScreen("Tap the card to discard (Select: cancel)", title="Discard")
    assert shows(duel, "stake-1", discard)
    duel.press("select")
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0, your_turn=True))
    assert snapshot(duel) == before
    duel.press("ok")  # back to plain play: OK passes again
    assert lines(duel)[-1] == {"player": 1, "action": "pass"}


def test_undo_and_redo_at_the_table(duel):
    seats_before = {role: duel.screens()[role] for role in ("stake-0", "stake-1")}
    state_before = duel.companion.controller.state
    duel.tap("stake-0", "chalice_of_life")
    played = duel.companion.controller.state
    duel.press("undo")
    assert lines(duel) == []
    assert duel.companion.controller.state == state_before
    for role, image in seats_before.items():
        assert same(duel.screens()[role], image)
    duel.press("undo", held=True)
    assert lines(duel) == [{"player": 0, "action": "play", "card": "chalice_of_life"}]
    assert duel.companion.controller.state == played
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0, your_turn=True))


def test_undo_in_the_middle_of_a_discard_drops_the_prompt(duel):
    duel.tap("stake-0", "chalice_of_life")
    duel.press("select")
    duel.tap("stake-1", "death_bell")
    duel.press("undo")  # takes back the chalice; the half-made discard is gone too
    assert lines(duel) == []
    assert shows(duel, "stake-0", SeatScreen("Forest Healer", ONE_EACH, 0, your_turn=True))
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0))


def discard(top, pad: str, card: str, gain: str) -> None:
    top.press("select")
    top.tap(pad, card)
    for _ in range(GAINS.index(gain)):
        top.press("select")
    top.press("ok")


def test_places_and_monuments_tapped_are_bought_and_leave_the_status_screen(duel):
    duel.press("ok")  # Forest Healer passes: Shadow Priest plays on alone
    for card in ("death_bell", "black_skull", "crown_of_thorns"):
        discard(duel, "stake-1", card, "death")
    duel.tap("stake-1", "death_crypt")
    assert lines(duel)[-1] == {"player": 1, "action": "buy", "card": "death_crypt"}
    places = (Essence.FIRE, Essence.LIFE, Essence.CALM, Essence.GOLD)
    status = ResStatusScreen(1, "Shadow Priest", places, monuments_up=2, monuments_hidden=4)
    assert shows(duel, "status", status)
    left = Essences(fire=1, life=1, calm=1, death=1, gold=1)
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", left, 1, your_turn=True))
    before = snapshot(duel)
    duel.tap("stake-1", "death_crypt")  # in front of Shadow Priest now: its power, 2 death
    assert shows(
        duel, "stake-1", RefusalScreen("The power of Death Crypt needs 2 death, you have 1.")
    )
    duel.tap("stake-0", "gold_mine")
    assert shows(duel, "stake-0", RefusalScreen("Forest Healer has passed this round."))
    assert snapshot(duel) == before
    duel.press("ok")  # round 2: Forest Healer first (passed first)
    discard(duel, "stake-0", "bag_of_gold", "gold")
    duel.press("ok")  # Shadow Priest passes: Forest Healer plays on alone
    discard(duel, "stake-0", "golden_scale", "gold")
    discard(duel, "stake-0", "trade_ring", "gold")
    duel.tap("stake-0", "monument_5")
    assert lines(duel)[-1] == {"player": 0, "action": "buy", "card": "monument_5"}
    status = ResStatusScreen(2, "Forest Healer", places, monuments_up=2, monuments_hidden=3)
    assert shows(duel, "status", status)
