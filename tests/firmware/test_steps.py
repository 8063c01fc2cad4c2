"""The one step type that scripts a table: what it carries, says and refuses."""

from __future__ import annotations

import pytest

from firmware.controllers.arcana import Bot as ArcanaBot
from firmware.controllers.resarcana import Bot as ResArcanaBot
from firmware.steps import Step


def test_a_tap_carries_its_card_and_a_press_may_be_held():
    tap = Step.tap("stake-2", "blades_agent_3")
    assert (tap.kind, tap.target, tap.card, tap.held) == ("tap", "stake-2", "blades_agent_3", False)
    assert Step.press("undo", held=True) == Step("press", "undo", None, True)
    assert Step.press("undo") != Step.press("undo", held=True)


def test_the_caption_names_the_pad_or_button_never_the_card():
    assert Step.tap("stake-2", "blades_agent_3").caption == "tap on stake-2"
    assert Step.press("ok").caption == "press ok"
    assert Step.press("undo", held=True).caption == "hold undo"


@pytest.mark.parametrize(
    ("kind", "target", "card", "held"),
    [
        ("tap", "stake-0", None, False),
        ("tap", "stake-0", "x", True),
        ("press", "ok", "x", False),
        ("slide", "stake-0", "x", False),
    ],
)
def test_a_step_that_cannot_be_done_is_refused_with_a_sentence(kind, target, card, held):
    with pytest.raises(ValueError, match=r"tap|press"):
        Step(kind, target, card, held)


def test_both_bots_answer_the_same_step_type():
    for bot in (ArcanaBot(1, 2), ResArcanaBot(7, 2)):
        steps = bot.setup_steps()
        assert steps and all(type(step) is Step for step in steps)
