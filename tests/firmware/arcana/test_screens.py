"""Arcana's screens as pure functions: an engine state and a `Prompt` value in, screen models
out (no controller, no table), so each case is one state and one prompt."""

from __future__ import annotations

import dataclasses
import random

from engine.arcana import RULES, State, random_setup
from engine.arcana.events import StakeEvaluated
from firmware.controllers.arcana.screens import (
    Prompt,
    empty_stake,
    round_summary,
    stake,
    status,
    struggle,
    table_screens,
)
from firmware.screens import (
    ArcanaStatusScreen,
    EmptyStakeScreen,
    PromptIcon,
    PromptScreen,
    RoundResultsScreen,
    Strength,
)


def two_players() -> State:
    return RULES.setup(random_setup(random.Random(3), 2))


def emptied(state: State, index: int, **changes) -> State:
    stakes = list(state.stakes)
    stakes[index] = dataclasses.replace(stakes[index], market=None)
    return dataclasses.replace(state, stakes=tuple(stakes), **changes)


def evaluated(state: State, stake_index: int, tie_break: str, winner: int | None, round_=1):
    return StakeEvaluated(
        round=round_, stake=stake_index, market=state.stakes[stake_index].market,
        arcanum="military", threshold=3, strengths=(4, 4), contenders=(0, 1), tied=(0, 1),
        tie_arcana=("military", "financial"), tie_break=tie_break, winner=winner, turned_face_up=(),
        won=(), sent_home=((), ()), militia_returned=(),
    )  # fmt: skip


def test_a_pad_without_a_stake_says_so_without_an_icon():
    state = two_players()
    assert stake(state, Prompt(), 7) == PromptScreen(
        "No stake here with 2 players", icon=PromptIcon.NONE
    )


def test_an_emptied_stake_waits_for_its_card_or_stays_empty():
    state = two_players()
    never = emptied(state, 1, game_end_revealed=True)
    assert empty_stake(never, 1) == EmptyStakeScreen("Stake 2", waiting=False, ending=True)
    assert empty_stake(emptied(state, 1), 1) == EmptyStakeScreen("Stake 2", waiting=False)
    now = emptied(emptied(state, 1), 4, reveals=(4, 1))
    assert empty_stake(now, 4) == EmptyStakeScreen("Free trade")
    assert empty_stake(now, 1) == EmptyStakeScreen("Stake 2", after="Free trade")


def test_the_under_the_base_question_has_a_short_form_for_small_screens():
    state = two_players()
    card = state.stakes[0].market
    name = state.catalog.card_name(card)
    asked = status(state, Prompt(question=(1, card)))
    assert asked == PromptScreen(
        f"Ben: {name}\nOK: yes  Select: no",
        title="Under the base?",
        icon=PromptIcon.NONE,
        short=f"{name} under base?\nOK: yes  Select: no",
    )


def test_the_prompt_says_what_the_status_screen_asks():
    state = two_players()
    assert status(state, Prompt(step="Swap: tap the 2nd stake")).prompt == (
        "Swap: tap the 2nd stake"
    )
    assert status(state, Prompt(discarding=True)).prompt == "Discard: tap the card"
    plain = status(state, Prompt())
    assert isinstance(plain, ArcanaStatusScreen) and plain.prompt == "Tap a card to play"


def test_a_tie_nobody_breaks_says_so_and_a_plain_win_says_nothing():
    state = two_players()
    unresolved = struggle(state, evaluated(state, 0, "unresolved", None))
    assert (unresolved.tie_break, unresolved.winner) == ("Tie: nobody wins it", None)
    plain = struggle(state, evaluated(state, 0, "none", 1))
    assert (plain.tie_break, plain.winner) == ("", "Ben")


def test_the_round_summary_counts_wins_and_unwon_stakes_of_that_round():
    state = two_players()
    events = [evaluated(state, 0, "none", 1, round_=3), evaluated(state, 1, "unresolved", None, 3)]
    assert round_summary(state.names, events) == RoundResultsScreen(
        3, (Strength("Ann", 0), Strength("Ben", 1)), 1
    )


def test_results_shown_on_a_stake_and_the_summary_come_from_the_prompt():
    state = two_players()
    shown = struggle(state, evaluated(state, 2, "none", 0))
    summary = round_summary(state.names, [evaluated(state, 2, "none", 0)])
    models = table_screens(state, Prompt(results=((2, shown),), summary=summary), 5)
    assert models[0] == summary and models[3] == shown
    assert models[1] == stake(state, Prompt(), 0) != shown
    assert len(models) == 6
