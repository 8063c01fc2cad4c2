"""Mid-game trouble on the emulated table: a reader that fails and comes back, a display
that disappears, unknown, repeated and out-of-turn taps. The game goes on and nothing
changes that should not (journal lines and engine state compared before and after)."""

from __future__ import annotations

import pytest

from engine.resarcana import current_player
from firmware.controllers.resarcana import Bot
from firmware.events import Device
from firmware.games import GameShelf
from firmware.screens import DeviceTroubleScreen, UnknownCardScreen, render
from firmware.tabletop import EmulatedTable
from hardware.display.screen import LONGEST_RETRY_S
from hardware.nfc.tags import Ntag


def same(a, b) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def perform(top: EmulatedTable, step) -> None:
    if step.kind == "tap":
        top.tap(step.target, step.card)
    else:
        top.press(step.target)


class Game:
    def __init__(self, top: EmulatedTable, bot: Bot) -> None:
        self.top, self.bot = top, bot
        for step in bot.setup_steps():
            perform(top, step)

    @property
    def state(self):
        return self.top.companion.controller.state

    def lines(self):
        return self.top.journal.lines(self.top.companion.game_id)

    def play(self, moves: int | None = None) -> None:
        done = 0
        while not self.top.companion.controller.is_over() and (moves is None or done < moves):
            for step in self.bot.next_steps(self.state):
                perform(self.top, step)
            done += 1

    def snapshot(self):
        return self.lines(), self.state


@pytest.fixture
def game(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        yield Game(top, Bot(8, 2))


def test_unknown_repeated_and_out_of_turn_taps_change_nothing(game):
    game.play(3)
    before = game.snapshot()
    seat = current_player(game.state)
    mine, theirs = f"stake-{seat}", f"stake-{1 - seat}"
    game.top.tap(mine, Ntag("04ffffffffff01"))  # a tag nobody enrolled
    assert same(game.top.screens()[mine], render(UnknownCardScreen()))
    game.top.tap(theirs, "seer_orb")  # the other seat, out of turn
    assert game.snapshot() == before
    assert not same(game.top.screens()[theirs], render(UnknownCardScreen()))
    # A card left on the pad (or flickering) is one tap, not several.
    steps = game.bot.next_steps(game.state)
    tap = next(step for step in steps if step.kind == "tap")
    for step in steps[: steps.index(tap)]:
        perform(game.top, step)
    chip = game.top.table.pads[tap.target]
    tag = game.top.tag_for(tap.card)
    chip.place(tag)
    game.top.settle()
    after_one = game.snapshot()
    chip.remove(tag.uid)
    game.top.clock.advance(0.1)  # a missed read, shorter than the absence time
    game.top.settle()
    chip.place(tag)
    game.top.settle()
    game.top.clock.advance(0.1)
    game.top.settle()
    assert game.snapshot() == after_one
    assert len(after_one[0]) == len(before[0]) + 1
    chip.remove(tag.uid)
    game.top.clock.advance(1)
    game.top.settle()
    for step in steps[steps.index(tap) + 1 :]:
        perform(game.top, step)
    game.play()
    assert game.top.companion.rules.result(game.state)["finished"]


def test_a_reader_that_fails_mid_game_and_comes_back(game):
    game.play(2)
    seat = current_player(game.state)
    other = f"stake-{1 - seat}"
    chip = game.top.table.pads[other]
    chip.fail("unplugged")
    for _ in range(3):
        game.top.wait(0.2)
    trouble = render(DeviceTroubleScreen(f"Reader {other} not answering"))
    assert same(game.top.screens()[other], trouble)
    before = len(game.lines())
    # The player to act goes on: their own reader still works.
    for step in game.bot.next_steps(game.state):
        if step.kind == "tap":
            assert step.target != other or current_player(game.state) != seat
        perform(game.top, step)
    assert len(game.lines()) == before + 1
    chip.recover()
    for _ in range(40):
        game.top.wait(0.5)
        if Device("reader", other) not in game.top.companion.troubles:
            break
    assert not same(game.top.screens()[other], trouble)
    game.play()
    assert game.top.companion.rules.result(game.state)["finished"]


def test_a_display_that_disappears_mid_game(game):
    game.play(2)
    game.top.table.unplug_display("stake-0")
    game.play(4)  # seat 0's screen changes: it fails to draw
    assert Device("display", "stake-0") in game.top.companion.troubles
    game.top.table.plug_display("stake-0")
    assert Device("display", "stake-0") in game.top.companion.troubles  # not redrawn since
    # The display is re-opened at the first redraw after its back-off (emulated seconds).
    game.top.wait(LONGEST_RETRY_S)
    assert Device("display", "stake-0") not in game.top.companion.troubles
    assert same(game.top.screens()["stake-0"], game.top.companion.frames()["stake-0"])
    game.play()
    assert game.top.companion.rules.result(game.state)["finished"]
    assert same(game.top.screens()["stake-0"], game.top.companion.frames()["stake-0"])
