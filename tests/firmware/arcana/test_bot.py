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


def test_an_unknown_variant_and_an_action_without_steps_are_refused_by_name():
    with pytest.raises(
        ValueError, match=r"""unknown variant 'expert' \(use "basic" or "advanced"\)"""
    ):
        Bot(1, 2, "expert")
    with pytest.raises(ValueError, match="the bot has no steps for a 'pass' action"):
        Bot(1, 2).steps_for(Action("pass", 0, ""))


def test_each_player_keeps_two_of_their_own_dealt_tasks_and_taps_them_on_the_first_pad():
    for seed in range(40):
        bot = Bot(seed, 4, "advanced")
        kept = [task for tasks in bot.tasks for task in tasks]
        assert len(kept) == 8 and len(set(kept)) == 8, seed  # nobody keeps another's task
        taps = [step for step in bot.setup_steps() if step.card in kept]
        assert {step.target for step in taps} == {"stake-0"}


def test_a_demo_game_past_its_step_budget_stops_after_the_move_that_crossed_it(tmp_path):
    """`max_steps` counts every step, the setup's too: the game stops at the first move that
    would begin once more steps than that were taken."""
    from firmware.controllers.arcana import play_demo_game
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    budget = len(Bot(3, 2).setup_steps())  # the setup, then one move: its steps cross it
    for moves in (1, 2):
        with EmulatedTable(tmp_path / str(moves), GameShelf()) as top:
            performed = []
            perform = top.perform
            top.perform = lambda step, seen=performed, perform=perform: (
                seen.append(step),
                perform(step),
            )
            with pytest.raises(RuntimeError, match=f"did not end within {budget} steps"):
                play_demo_game(top, Bot(3, 2), max_steps=budget)
            assert len(top.journal.lines(top.companion.game_id)) == moves
        budget = len(performed)  # exactly the steps of the setup and the first move


def test_a_finished_game_has_no_next_steps(tmp_path):
    from firmware.controllers.arcana import play_demo_game
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(2, 2)
        play_demo_game(top, bot)
        assert top.companion.controller.is_over()
        assert bot.next_steps(top.companion.controller.state) == []
