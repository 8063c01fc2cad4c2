"""Secrets of an advanced Arcana game: kept tasks and face-down agents appear only in their
owner's hand, never in the shared state (the record's header, the result, the engine view);
the record names a face-down agent only in lines from before it was laid face down.
`tests/sim/test_indistinguishable.py` proves the stronger property."""

from __future__ import annotations

import json

import pytest

from firmware.controllers import arcana
from firmware.sim.table import BadInput, Simulator


@pytest.fixture
def table(tmp_path):
    sim = Simulator(tmp_path / "state")
    yield sim
    sim.close()


def shared(state: dict) -> str:
    """The state without the card box (the catalog names every card)."""
    return json.dumps({key: value for key, value in state.items() if key != "box"})


def test_kept_tasks_show_only_in_their_owners_hand(table):
    table.set_up("arcana", 2, seed=3, variant="advanced")
    tasks = table.top.companion.controller.state.tasks
    assert all(len(kept) == 2 for kept in tasks)
    public = table.state()
    assert public["record"][0]["setup"]["tasks"] == [[None, None], [None, None]]
    for seat in (0, 1):
        mine = table.state(seat)
        assert [task["card"] for task in mine["hand"]["secret"]["tasks"]] == list(tasks[seat])
        others = tasks[1 - seat]
        assert not any(task in shared(mine) for task in others)
        assert not any(task in shared(public) for task in tasks[seat])


def test_secrets_are_redacted_until_the_end_then_tasks_show(table):
    table.set_up("arcana", 2, seed=3, variant="advanced")
    bot = arcana.Bot(3, 2, variant="advanced")
    bot.setup_steps()  # the same seeded deal the table was seated with
    hidden_seen = False
    while not table.top.companion.controller.is_over():
        state = table.top.companion.controller.state
        down = {c for stake in state.stakes for side in stake.agents for c, d in side if d}
        seen = table.state()
        public = shared({key: value for key, value in seen.items() if key != "record"})
        assert not any(card in public for card in down)
        # the record names a face-down agent only in lines from before it went face down
        raw = [
            json.loads(line)
            for line in table.top.journal.record(table.top.companion.game_id).splitlines()
        ]
        for card in down:
            last = max(i for i, line in enumerate(raw) if card in json.dumps(line))
            assert card not in json.dumps(seen["record"][last:])
        hidden_seen = hidden_seen or bool(down)
        for step in bot.next_steps(state):
            if step.kind == "tap":
                table.tap(step.target, step.card)
            else:
                table.press(step.target, held=step.held)
    assert hidden_seen
    final = table.state()
    assert final["phase"] == "over"
    tasks = table.top.companion.controller.state.tasks
    assert final["record"][0]["setup"]["tasks"] == [list(kept) for kept in tasks]


def test_an_unknown_game_or_seat_is_bad_input(table):
    with pytest.raises(BadInput, match="Unknown game 'chess'"):
        table.set_up("chess", 2)
    with pytest.raises(BadInput, match="There is no seat 'x'"):
        table.state("x")
