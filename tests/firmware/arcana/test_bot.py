"""The demo bot's physical steps (`firmware.steps.Step`), the way the table expects each
action to be entered."""

from __future__ import annotations

import pytest

from engine.arcana import Action
from firmware.controllers.arcana import Bot
from firmware.steps import Step


def test_setup_steps_choose_seat_lay_the_stakes_and_keep_tasks():
    bot = Bot(4, 3, "advanced")
    steps = bot.setup_steps()
    assert steps[:3] == [Step.press("ok"), Step.press("select"), Step.press("ok")]
    bases = [Step.tap("stake-0", f"{guild}_base") for guild in bot.guilds]
    assert steps[3:6] == bases
    assert steps[6] == Step.press("ok")  # three seated: OK starts
    assert steps[7:11] == [Step.tap(f"stake-{i}", pile[0]) for i, pile in enumerate(bot.piles)]
    kept = [step.card for step in steps[11:]]
    assert kept == [task for tasks in bot.tasks for task in tasks]
    assert len(set(kept)) == 6


def test_four_players_need_no_ok_to_start():
    steps = Bot(1, 4).setup_steps()
    assert steps[2:6] == [Step.tap("stake-0", f"{g}_base") for g in Bot(1, 4).guilds]
    assert steps[6].kind == "tap"


def test_actions_become_the_taps_the_table_expects():
    bot = Bot(1, 2)
    swap = Action("location", 1, "ferrymen_location", None, (("a", 1), ("b", 3)))
    assert bot.steps_for(swap) == [
        Step.tap("stake-0", "ferrymen_location"),
        Step.tap("stake-1", "ferrymen_location"),
        Step.tap("stake-3", "ferrymen_location"),
    ]
    move = Action("location", 0, "blades_location", None, (("card", "blades_agent_2"), ("to", 4)))
    assert bot.steps_for(move) == [
        Step.tap("stake-0", "blades_location"),
        Step.tap("stake-0", "blades_agent_2"),
        Step.tap("stake-4", "blades_agent_2"),
    ]
    discard = Action("discard", 0, "blades_relic")
    assert bot.steps_for(discard) == [Step.press("select"), Step.tap("stake-0", "blades_relic")]
    bribe = Action("bribe", 0, "blades_relic", 2)
    assert bot.steps_for(bribe) == [Step.tap("stake-2", "blades_relic")]


def test_a_bot_for_five_players_is_refused():
    with pytest.raises(ValueError, match="2 to 4 players"):
        Bot(1, 5)
