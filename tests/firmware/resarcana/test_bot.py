"""The Res Arcana demo bot, stated on built positions: its greedy order (VP powers, buys,
plays of VP-power artifacts, producers, other plays, free powers, paid powers that convert
toward the next buy, discards of what cannot be paid, pass), the place or monument it saves
for, the deals it keeps, the steps it answers, and its refusals by name."""

from __future__ import annotations

import random

import pytest

from engine.resarcana import RULES, Action, Position
from engine.resarcana.cards import MONUMENTS, PLACES
from engine.resarcana.scenario import adjust, deal
from firmware.controllers.resarcana import Bot, play_demo_game
from firmware.controllers.resarcana.bot import _deal, _ends_soon, choose, steps_for
from firmware.games import GameShelf
from firmware.steps import Step
from firmware.tabletop import EmulatedTable

PLACE_IDS = [place.id for place in PLACES]
MONUMENT_IDS = [monument.id for monument in MONUMENTS]


def ann(hand=(), tableau=(), ben=(), **essences):
    """Ann (seat 0, Fire Mage) to play in round 1 with exactly this hand, tableau and stock
    (every kind not given at 0); Ben's tableau holds `ben` (places and monuments he bought)."""
    state = RULES.setup(deal())
    state = adjust(state, 1, tableau=list(ben))
    return adjust(
        state,
        0,
        essences=essences,
        hand=list(hand),
        hand_size=len(hand),
        tableau=list(tableau),
        deck=[],
        deck_size=0,
    )


def picked(state) -> tuple[str, str | None, str | None]:
    action = choose(state)
    return action.kind, action.card, action.gain


# The greedy order, each kind against the next one down.


def test_a_vp_power_comes_before_a_buy():
    state = ann(tableau=["secret_key"], gold=4)  # Secret Key: 2 gold -> 1 VP; a monument: 4
    assert Action(0, "buy", "monument_1") in RULES.legal_actions(state)
    assert picked(state) == ("activate", "secret_key", None)


def test_a_buy_comes_before_playing_a_vp_artifact():
    state = ann(hand=["secret_key"], calm=1, gold=4)
    assert picked(state) == ("buy", "monument_1", None)


def test_the_buy_worth_more_vp_comes_first_whatever_its_place_in_the_list():
    # Calm Temple (3 VP) before a monument (2 VP); a monument before Death Crypt (1 VP),
    # although the places come first among the legal buys.
    assert picked(ann(calm=5, gold=4)) == ("buy", "calm_temple", None)
    assert picked(ann(death=6, gold=4)) == ("buy", "monument_1", None)


def test_playing_a_vp_artifact_comes_before_a_producer():
    state = ann(hand=["chalice_of_life", "secret_key"], life=1, calm=1)
    assert picked(state) == ("play", "secret_key", None)


def test_a_producer_comes_before_another_artifact_even_a_cheaper_one():
    # Healing Spring (3 life, produces life) against Trade Ring (1 gold, produces nothing).
    state = ann(hand=["trade_ring", "healing_spring"], life=3, gold=1)
    assert picked(state) == ("play", "healing_spring", None)


def test_the_cheaper_play_of_each_kind_comes_first():
    assert picked(ann(hand=["seer_orb", "secret_key"], calm=2)) == ("play", "secret_key", None)
    assert picked(ann(hand=["healing_spring", "ancient_seed"], life=3)) == (
        "play",
        "ancient_seed",
        None,
    )
    assert picked(ann(hand=["alchemist_staff", "trade_ring"], calm=1, death=1, gold=1)) == (
        "play",
        "trade_ring",
        None,
    )


def test_equal_plays_go_in_the_rules_order():
    state = ann(hand=["mirror_of_calm", "chalice_of_life"], life=1, calm=1)
    assert RULES.legal_actions(state)[0].card == "chalice_of_life"
    assert picked(state) == ("play", "chalice_of_life", None)


def test_playing_any_artifact_comes_before_a_free_power():
    state = ann(hand=["phoenix_wing"], tableau=["stone_armor"], fire=2, life=1)
    assert picked(state) == ("play", "phoenix_wing", None)  # no produce, no VP: the least play


def test_a_free_power_comes_before_a_paid_one_that_converts():
    # Alchemist's Staff (2 life -> 2 gold) would bring the monument nearer; Boiling Cauldron
    # (free -> life and fire), later in the list, is still first.
    state = ann(tableau=["alchemist_staff", "boiling_cauldron"], life=2, gold=2)
    assert picked(state) == ("activate", "boiling_cauldron", None)


def test_a_paid_power_that_converts_spares_toward_the_next_buy_comes_before_a_discard():
    # Trade Ring: 1 death -> 1 gold and 1 life; the next buy is a monument (2 gold short).
    state = ann(hand=["healing_spring"], tableau=["trade_ring"], death=1, gold=2)
    assert picked(state) == ("activate", "trade_ring", None)


def test_a_paid_power_spending_exactly_the_spares_is_used():
    # Golden Scale: 1 fire and 1 calm -> 2 gold; Calm Temple (5 calm, 1 gold) is 1 gold short.
    state = ann(tableau=["golden_scale"], fire=1, calm=6)
    assert picked(state) == ("activate", "golden_scale", None)


def test_a_paid_power_spending_what_the_next_buy_needs_is_not_used():
    state = ann(tableau=["golden_scale"], fire=1, calm=5)  # the 5th calm is the Temple's
    assert picked(state) == ("pass", None, None)


def test_a_paid_power_gaining_nothing_the_next_buy_lacks_is_not_used():
    # Dragon Tower (4 fire, 2 death) is 2 death short; Phoenix Wing gains fire only.
    state = ann(tableau=["phoenix_wing"], fire=4, life=1)
    assert picked(state) == ("pass", None, None)


# Discards: only what cannot be paid, for what the next buy lacks most.


def test_a_card_that_cannot_be_paid_is_discarded_for_the_gold_a_monument_lacks():
    assert picked(ann(hand=["chalice_of_life"])) == ("discard", "chalice_of_life", "gold")


def test_a_discard_gains_the_two_essences_the_next_buy_lacks_most():
    # Dragon Tower is 1 fire and 2 death short: 2 death brings it nearest.
    state = ann(hand=["chalice_of_life"], fire=3)
    assert picked(state) == ("discard", "chalice_of_life", "death")


def test_a_discard_comes_before_passing_even_when_it_brings_no_buy_nearer():
    # Nothing left to buy: every discard is as good as another, and still better than a pass.
    state = ann(hand=["chalice_of_life"], ben=PLACE_IDS + MONUMENT_IDS, gold=1)
    assert picked(state) == ("discard", "chalice_of_life", "fire")


# The next buy saved for: the place or face-up monument fewest essences short.


def test_the_next_buy_is_the_place_or_monument_fewest_essences_short():
    # 3 fire, 1 death, 3 gold: a monument is 1 gold short, Dragon Tower 1 fire and 1 death.
    state = ann(hand=["chalice_of_life"], fire=3, death=1, gold=3)
    assert picked(state) == ("discard", "chalice_of_life", "gold")


def test_a_place_comes_before_a_monument_as_short():
    # 3 fire, 1 gold: Dragon Tower (2 death, 1 fire short) and a monument (3 gold) are as far.
    state = ann(hand=["chalice_of_life"], fire=3, gold=1)
    assert picked(state) == ("discard", "chalice_of_life", "death")


def test_a_monument_is_saved_for_only_while_one_is_face_up():
    # 3 gold: a monument is 1 short; with Gold Mine gone, Calm Temple is the nearest place.
    face_up = ann(hand=["chalice_of_life"], ben=["gold_mine"], gold=3)
    assert picked(face_up) == ("discard", "chalice_of_life", "gold")
    gone = ann(hand=["chalice_of_life"], ben=["gold_mine", *MONUMENT_IDS], gold=3)
    assert Position(gone).monuments_face_up() == []
    assert picked(gone) == ("discard", "chalice_of_life", "calm")


def test_with_nothing_left_to_buy_no_paid_power_is_worth_it():
    state = ann(tableau=["trade_ring"], ben=PLACE_IDS + MONUMENT_IDS, death=2)
    assert picked(state) == ("pass", None, None)


# Whole games: which deals the bot keeps.


def won_by_ann_at_the_end_of(round_: int):
    """Round `round_` begun, Ann already at 10 VP: the game ends when the round does."""
    state = adjust(RULES.setup(deal()), None, round=round_)
    return adjust(state, 0, tokens=10)


def test_a_game_ending_in_the_last_demo_round_ends_soon_and_one_round_later_does_not():
    assert _ends_soon(won_by_ann_at_the_end_of(15))
    assert not _ends_soon(won_by_ann_at_the_end_of(16))


def test_a_game_already_over_ends_soon():
    state = adjust(won_by_ann_at_the_end_of(3), None, finished=True)
    assert RULES.is_terminal(state) and _ends_soon(state)


def test_a_deal_that_does_not_end_soon_is_dealt_again_from_the_same_seed():
    seed = 42  # its first two-player deal ends soon from neither start player
    first = _deal(random.Random(seed), 2)
    assert not any(_ends_soon(RULES.setup(first | {"start_player": s})) for s in (0, 1))
    bot = Bot(seed, 2)
    assert bot.deal != first and bot.deal == Bot(seed, 2).deal
    assert all(_ends_soon(RULES.setup(bot.deal | {"start_player": s})) for s in (0, 1))
    assert bot.deal["start_player"] == 0 and bot.at == 0
    assert bot.line == [RULES.setup(bot.deal)]


def test_a_seed_without_a_deal_that_ends_soon_is_refused_by_name(monkeypatch):
    monkeypatch.setattr("firmware.controllers.resarcana.bot.DEMO_ROUNDS", 0)
    with pytest.raises(RuntimeError, match=r"^no deal of seed 7 ends within 0 rounds$"):
        Bot(7, 2)


# Setting up, and the steps of each action.


def test_a_bot_for_one_or_five_players_is_refused_by_name():
    for players in (1, 5):
        with pytest.raises(ValueError, match=r"^Res Arcana is played by 2 to 4 players$"):
            Bot(1, players)


def test_a_bot_with_fewer_pads_than_players_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^3 players need 3 pads, the table has 2$"):
        Bot(1, 3, pads=("stake-0", "stake-1"))


def test_a_bot_seats_its_players_on_the_first_pads_given_and_needs_no_more():
    assert Bot(1, 2).pads == ("stake-0", "stake-1")
    assert Bot(1, 2, pads=("north", "south")).pads == ("north", "south")


def test_setup_steps_choose_res_arcana_seat_the_mages_and_press_ok_below_a_full_table():
    two = Bot(1, 2)
    mages = two.deal["mages"]
    assert two.setup_steps() == [
        Step.press("select"),
        Step.press("ok"),
        Step.tap("stake-0", mages[0]),
        Step.tap("stake-1", mages[1]),
        Step.press("ok"),
    ]
    four = Bot(1, 4)
    taps = [Step.tap(f"stake-{i}", mage) for i, mage in enumerate(four.deal["mages"])]
    assert four.setup_steps() == [Step.press("select"), Step.press("ok"), *taps]


def test_each_action_becomes_the_steps_the_table_expects():
    pads = ("stake-0", "stake-1")
    assert steps_for(Action(1, "pass"), pads) == [Step.press("ok")]
    for kind in ("play", "activate", "buy"):
        assert steps_for(Action(1, kind, "seer_orb"), pads) == [Step.tap("stake-1", "seer_orb")]
    assert steps_for(Action(0, "discard", "seer_orb", "gold"), pads) == [
        Step.press("select"),
        Step.tap("stake-0", "seer_orb"),
        Step.press("ok"),
    ]
    assert steps_for(Action(0, "discard", "seer_orb", "calm"), pads) == [
        Step.press("select"),
        Step.tap("stake-0", "seer_orb"),
        *[Step.press("select")] * 3,  # gold, fire, life, calm
        Step.press("ok"),
    ]


# Following the table: its start player, undo, cards played by hand, the step budget.

SEAT_1_STARTS = 0  # a GameShelf seed whose first two-player draw is seat 1 (2: seat 0)


def perform(top, steps) -> None:
    for step in steps:
        top.perform(step)


def test_the_bot_plays_the_same_deal_from_the_start_player_the_table_draws(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf(seed=SEAT_1_STARTS)) as top:
        perform(top, bot.setup_steps())
        assert Position(top.companion.controller.state).start_player == 1
        dealt = bot.deal
        first = bot.next_steps(top.companion.controller.state)
        assert bot.deal == dealt | {"start_player": 1}
        assert bot.line[0] == RULES.setup(bot.deal) and bot.at == 1
        assert bot.line[1] == RULES.apply(bot.line[0], choose(bot.line[0])).state
        assert choose(bot.line[0]).player == 1
        perform(top, first)
        result = play_demo_game(top, bot)
    assert result == RULES.result(bot.state) and result["finished"]


def test_a_card_played_by_hand_after_the_draw_is_noticed_by_name(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf(seed=SEAT_1_STARTS)) as top:
        perform(top, bot.setup_steps())
        top.press("ok")  # seat 1 passes: not what the bot would do
        message = (
            r"^the table \(round 1, seat 0 to act\) and the bot disagree:"
            r" was a card played by hand\?$"
        )
        with pytest.raises(RuntimeError, match=message):
            bot.next_steps(top.companion.controller.state)


def test_an_undo_of_the_first_move_takes_the_bot_back_to_the_deal(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf(seed=2)) as top:
        perform(top, bot.setup_steps())
        first = bot.next_steps(top.companion.controller.state)
        perform(top, first)
        top.press("undo")
        assert bot.next_steps(top.companion.controller.state) == first
        assert bot.at == 1 and len(bot.line) == 2


def test_an_undo_in_a_round_another_seat_starts_is_followed(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf(seed=2)) as top:  # seat 0 draws the start
        perform(top, bot.setup_steps())
        while Position(top.companion.controller.state).start_player == 0:
            perform(top, bot.next_steps(top.companion.controller.state))
        perform(top, bot.next_steps(top.companion.controller.state))
        at = bot.at
        top.press("undo")
        again = bot.next_steps(top.companion.controller.state)
        assert bot.at == at and bot.deal["start_player"] == 0
        perform(top, again)
        assert play_demo_game(top, bot)["finished"]


def test_a_demo_game_may_take_exactly_its_step_budget_and_not_one_step_more(tmp_path):
    """`max_steps` counts every step, the setup's too; the step that crosses it is taken
    (and seen by `after_step`) before the game stops."""
    seen: list[Step] = []
    with EmulatedTable(tmp_path / "whole", GameShelf(seed=2)) as top:
        result = play_demo_game(top, Bot(1, 2), after_step=seen.append)
    steps = len(seen)
    with EmulatedTable(tmp_path / "exact", GameShelf(seed=2)) as top:
        assert play_demo_game(top, Bot(1, 2), max_steps=steps) == result
    for budget in (steps - 1, len(Bot(1, 2).setup_steps()) - 1):
        crossing: list[Step] = []
        with (
            EmulatedTable(tmp_path / str(budget), GameShelf(seed=2)) as top,
            pytest.raises(RuntimeError, match=f"^the demo game did not end within {budget} steps$"),
        ):
            play_demo_game(top, Bot(1, 2), max_steps=budget, after_step=crossing.append)
        assert crossing == seen[: budget + 1]


def test_a_finished_game_has_no_next_steps(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf(seed=2)) as top:
        play_demo_game(top, bot)
        assert top.companion.controller.is_over()
        assert bot.next_steps(top.companion.controller.state) == []
