"""Indistinguishability over the simulator's HTTP API: two served tables whose games differ
only in WHICH agent a player lays face down (or which tasks they keep) give the same answers,
byte for byte, to the same requests, for the public table and every other seat.

Channels compared after every tap and press: the answer of the `/api/tap` or `/api/button`
request itself (status and body), `GET /api/state` without a seat and for every seat but the
owner's, every display's `GET /api/screens/<display>.png`, and the `/api/events` stream
(one event per change); for kept tasks, from the seating's first tap. Twins and moves:
`tests/support/twins.py`.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
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
    task_twins,
)

from engine.arcana import RULES, State, decode_action, encode_action
from engine.protocol import Applied
from firmware.journal import Journal
from firmware.sim.server import Running, make_app
from firmware.sim.table import Simulator
from firmware.steps import Step

PICKS = st.lists(st.integers(0, 2**20), min_size=6, max_size=12)
SETTINGS = settings(
    max_examples=examples(3),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Served:
    """One simulator on a free port, with its event stream open."""

    def __init__(self, state_dir: Path) -> None:
        self.table = Simulator(state_dir)
        self.running = Running(make_app(self.table, tick_s=0))
        self.stream = urllib.request.urlopen(self.running.url + "api/events", timeout=30)
        self.version = self.table.version
        self.events = [self.next_event()]

    def call(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.running.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as err:
            with err:
                return err.code, err.read()

    def next_event(self) -> bytes:
        lines = []
        while (line := self.stream.readline()) not in (b"\n", b""):
            lines.append(line)
        return b"".join(lines)

    def perform(self, step: Step) -> tuple[int, bytes]:
        if step.kind == "tap":
            answer = self.call("POST", "api/tap", {"pad": step.target, "card": step.card})
        else:
            answer = self.call("POST", "api/button", {"name": step.target, "held": step.held})
        if self.table.version != self.version:  # one change, one event
            self.version = self.table.version
            self.events.append(self.next_event())
        return answer

    def seen(self, owner: int, answer: tuple[int, bytes] | None) -> list:
        """Every answer another player can get, as bytes."""
        players = (
            len(self.table.top.companion.controller.state.names)
            if self.table.top.companion.rules
            else 0
        )
        out: list = [answer, self.events]
        for seat in ["", *(f"?seat={p}" for p in range(players) if p != owner)]:
            out.append(self.call("GET", f"api/state{seat}"))
        for display in self.table.displays:
            out.append(self.call("GET", f"api/screens/{display}.png?scale=1"))
        return out

    def close(self) -> None:
        self.stream.close()
        self.running.stop()


class Pair:
    def __init__(self, tmp: Path, twins: Twins, journalled: bool = True) -> None:
        self.twins = twins
        self.sims = []
        for side, setup in enumerate(twins.setups):
            if journalled:  # the common prefix, as if the simulator had been stopped there
                with Journal.open(tmp / "ab"[side]) as journal:
                    game = journal.start("arcana", setup)
                    for action in twins.prefix:
                        journal.append(game, encode_action(action))
            self.sims.append(Served(tmp / "ab"[side]))

    @property
    def state(self) -> State:
        return self.sims[0].table.top.companion.controller.state

    def step(self, step_a: tuple, step_b: tuple) -> bool:
        """One request to each simulator; compare everything unless a secret was turned up."""
        before, lines = self.state, self._lines()
        answers = [sim.perform(step) for sim, step in zip(self.sims, (step_a, step_b), strict=True)]
        if self._revealed(before, lines):
            return False
        a, b = (
            sim.seen(self.twins.owner, answer)
            for sim, answer in zip(self.sims, answers, strict=True)
        )
        assert a == b, (step_a, step_b)
        return True

    def _lines(self) -> list[dict]:
        top = self.sims[0].table.top
        return top.journal.lines(top.companion.game_id) if top.companion.game_id else []

    def _revealed(self, before: State | None, lines: list[dict]) -> bool:
        now = self._lines()
        if self.sims[0].table.top.companion.finished:
            return True
        if before is None or len(now) != len(lines) + 1:
            return False
        outcome = RULES.apply(before, decode_action(now[-1]))
        return isinstance(outcome, Applied) and reveals(outcome.events, self.twins.secrets)

    def follow(self, picks: list[int]) -> int:
        done = 0
        for pick in picks:
            move = next_move(self.state, pick, self.twins)
            if move is None:
                break
            steps = table_steps(move, self.pads)
            if not all(self.step(a, b) for a, b in zip(*steps, strict=True)):
                break
            done += 1
        return done

    @property
    def pads(self) -> tuple[str, ...]:
        return self.sims[0].table.roles

    def close(self) -> None:
        for sim in self.sims:
            sim.close()


@SETTINGS
@given(**AGENT_TWINS, picks=PICKS)
def test_which_agent_lies_face_down_cannot_be_told_over_http(
    tmp_path_factory, seed, players, variant, warmup, picks
):
    twins = agent_twins(seed, players, variant, warmup)
    if twins is None:
        event("the game ended before a face-down choice")
        return
    pair = Pair(tmp_path_factory.mktemp("twins"), twins)
    try:
        assert pair.sims[0].seen(twins.owner, None) == pair.sims[1].seen(twins.owner, None)
        first = table_steps(("both", *twins.first), pair.pads)
        assert all(pair.step(a, b) for a, b in zip(*first, strict=True))
        event(f"moves compared: {min(pair.follow(picks), 10) // 5 * 5}+")
    finally:
        pair.close()


@SETTINGS
@given(**TASK_TWINS, picks=PICKS)
def test_which_tasks_were_kept_cannot_be_told_over_http(tmp_path_factory, seed, players, picks):
    twins = task_twins(seed, players)
    pair = Pair(tmp_path_factory.mktemp("twins"), twins, journalled=False)
    try:
        seating = [seating_steps(setup, pair.pads) for setup in twins.setups]
        assert all(pair.step(a, b) for a, b in zip(*seating, strict=True))  # the tasks' taps too
        event(f"moves compared: {min(pair.follow(picks), 10) // 5 * 5}+")
    finally:
        pair.close()


def test_an_undo_answer_does_not_name_the_face_down_agent(tmp_path):
    twins = agent_twins(seed=5, players=2, variant="basic", warmup=0)
    assert twins is not None
    pair = Pair(tmp_path, twins)
    try:
        first = table_steps(("both", *twins.first), pair.pads)
        assert all(pair.step(a, b) for a, b in zip(*first, strict=True))
        for held in (False, True):
            status, body = pair.sims[0].perform(Step.press("undo", held=held))
            answer = json.loads(body)
            assert status == 200 and "a face-down agent" in answer["notice"], answer
            assert not any(card in body.decode() for card in twins.secrets)
    finally:
        pair.close()
