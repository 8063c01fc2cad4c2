"""Indistinguishability at the emulated table: two tables whose games differ only in WHICH
agent a player lays face down (or which tasks they keep) show the same to everyone, byte for
byte, through the same following taps, presses, undos and redos.

Channels compared after every tap and press: each emulated display's RAM (the bytes luma
sent, decoded by the emulated SSD1306) and its bus traffic, the companion's notices, the
buzzer's patterns; on the full table and on the minimal one. The card goes through the whole
path: emulated PN532, the adafruit driver, the scanner, the controller, the engine, the
journal. Twins and moves: `tests/support/twins.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from twins import (
    AGENT_TWINS,
    TASK_TWINS,
    Twins,
    agent_twins,
    examples,
    next_move,
    reveals,
    seating_steps,
    table_steps,
)
from twins import task_twins as make_task_twins

from engine.arcana import RULES, State, decode_action, encode_action
from engine.protocol import Applied
from firmware.games import FULL_TABLE_PADS, GameShelf
from firmware.journal import Journal
from firmware.steps import Step
from firmware.tabletop import EmulatedTable

PICKS = st.lists(st.integers(0, 2**20), min_size=6, max_size=14)
SETTINGS = settings(
    max_examples=examples(6),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def seen(top: EmulatedTable) -> bytes:
    """Everything the players can see or hear at this table, as bytes."""
    parts = []
    for role, display in sorted(top.table.displays.items()):
        parts.append(role.encode())
        parts.extend(display.chip.pages())
        parts.append(json.dumps(display.counters, sort_keys=True).encode())
    notices = {role: [n.message, n.until] for role, n in top.companion.notices.items()}
    parts.append(json.dumps(notices, sort_keys=True).encode())
    buzzer = top.table.buzzer  # the minimal table has none
    parts.append(json.dumps(buzzer.played if buzzer is not None else None).encode())
    return b"\n".join(parts)


class Pair:
    """Game A's table and game B's, stepped together."""

    def __init__(
        self, tmp: Path, twins: Twins, journalled: bool, profile: str = "full-table"
    ) -> None:
        self.twins = twins
        self.minimal = profile == "minimal"
        self.tops = []
        for side, setup in enumerate(twins.setups):
            state_dir = tmp / f"{'ab'[side]}"
            if journalled:  # the common prefix, as if the table had been switched off there
                with Journal.open(state_dir) as journal:
                    game = journal.start("arcana", setup)
                    for action in twins.prefix:
                        journal.append(game, encode_action(action))
            self.tops.append(EmulatedTable(state_dir, GameShelf(), profile, hold_s=0.01))
        self.same()

    @property
    def state(self) -> State:
        return self.tops[0].companion.controller.state

    def same(self) -> None:
        a, b = (seen(top) for top in self.tops)
        assert a == b

    def step(self, steps: tuple[list[Step], list[Step]]) -> bool:
        """Perform A's and B's steps side by side, comparing after each; False (and nothing
        compared) once a step turns a secret card face up or ends the game."""
        for step_a, step_b in zip(*map(self._physical, steps), strict=True):
            before = self.state
            lines = self._lines()
            self.tops[0].perform(step_a)
            self.tops[1].perform(step_b)
            if self._revealed(before, lines):
                return False
            self.same()
        return True

    def _physical(self, steps: list[Step]) -> list[Step]:
        """On a minimal table a tap on a role's pad is: hold Select until the one pad stands
        for that role, then tap the one pad (each press compared too)."""
        if not self.minimal:
            return steps
        single = self.tops[0].companion.single_pad
        assert single is not None
        index, out = single.index, []
        for step in steps:
            if step.kind == "tap":
                assert step.card is not None
                turns = (single.roles.index(step.target) - index) % len(single.roles)
                out += [Step.press("select", held=True)] * turns + [Step.tap("main", step.card)]
                index = single.roles.index(step.target)
            else:
                out.append(step)
        return out

    def _lines(self) -> list[dict]:
        top = self.tops[0]
        return top.journal.lines(top.companion.game_id) if top.companion.game_id else []

    def _revealed(self, before: State | None, lines: list[dict]) -> bool:
        now = self._lines()
        if self.tops[0].companion.finished:
            return True  # the scoring turns every card up
        if before is None or len(now) != len(lines) + 1:
            return False
        outcome = RULES.apply(before, decode_action(now[-1]))
        return isinstance(outcome, Applied) and reveals(outcome.events, self.twins.secrets)

    def follow(self, picks: list[int]) -> int:
        """The same moves on both tables; the number of moves compared."""
        done = 0
        for pick in picks:
            move = next_move(self.state, pick, self.twins)
            if move is None:
                break
            if not self.step(table_steps(move, FULL_TABLE_PADS)):
                break
            done += 1
        return done

    def close(self) -> None:
        for top in self.tops:
            top.close()


@SETTINGS
@given(**AGENT_TWINS, picks=PICKS)
def test_which_agent_lies_face_down_cannot_be_told_at_the_table(
    tmp_path_factory, seed, players, variant, warmup, picks
):
    twins = agent_twins(seed, players, variant, warmup)
    if twins is None:
        event("the game ended before a face-down choice")
        return
    pair = Pair(tmp_path_factory.mktemp("twins"), twins, journalled=True)
    try:
        assert pair.step(table_steps(("both", *twins.first), FULL_TABLE_PADS))  # the tap
        assert pair.tops[0].companion.controller.state != pair.tops[1].companion.controller.state
        event(f"moves compared: {min(pair.follow(picks), 10) // 5 * 5}+")
    finally:
        pair.close()


@SETTINGS
@given(**TASK_TWINS, picks=PICKS)
def test_which_tasks_were_kept_cannot_be_told_at_the_table(tmp_path_factory, seed, players, picks):
    twins = make_task_twins(seed, players)
    pair = Pair(tmp_path_factory.mktemp("twins"), twins, journalled=False)
    try:
        seating = [seating_steps(setup, FULL_TABLE_PADS) for setup in twins.setups]
        assert pair.step((seating[0], seating[1]))  # every seating tap, the tasks' too
        states = [top.companion.controller.state for top in pair.tops]
        assert states[0].tasks != states[1].tasks
        event(f"moves compared: {min(pair.follow(picks), 10) // 5 * 5}+")
    finally:
        pair.close()


@settings(SETTINGS, max_examples=examples(5))
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([2, 3, 4]),
    warmup=st.integers(0, 40),
    picks=st.lists(st.integers(0, 2**20), min_size=4, max_size=6),
)
def test_which_agent_lies_face_down_cannot_be_told_on_a_minimal_table(
    tmp_path_factory, seed, players, warmup, picks
):
    """One pad and one OLED for every role: the pad moves round with held Select presses."""
    twins = agent_twins(seed, players, "basic", warmup)
    if twins is None:
        event("the game ended before a face-down choice")
        return
    pair = Pair(tmp_path_factory.mktemp("twins"), twins, journalled=True, profile="minimal")
    try:
        assert pair.step(table_steps(("both", *twins.first), FULL_TABLE_PADS))
        event(f"moves compared: {min(pair.follow(picks), 10) // 5 * 5}+")
    finally:
        pair.close()


def test_an_undone_face_down_agent_is_not_named(tmp_path):
    twins = agent_twins(seed=5, players=2, variant="basic", warmup=0)
    assert twins is not None
    pair = Pair(tmp_path, twins, journalled=True)
    try:
        assert pair.step(table_steps(("both", *twins.first), FULL_TABLE_PADS))
        stake = twins.first[0].stake
        for press in (Step.press("undo"), Step.press("undo", held=True)):
            assert pair.step(([press], [press]))
            notice = pair.tops[0].companion.notices["status"].message
            assert notice.endswith(f"a face-down agent on stake {stake + 1}"), notice
            assert not any(card in notice for card in twins.secrets)
    finally:
        pair.close()
