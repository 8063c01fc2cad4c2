"""Game records (JSON Lines, `../spec/records.md`): read, write and replay.

    result = replay(Path("game.jsonl").read_text().splitlines())

A malformed or illegal line raises `RecordError` with its 1-based line number; the caller
(`arcana-table replay`) prints `line N: <reason>` and exits 2.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from typing import Any

from engine.protocol import Rejection, Rules

FORMAT = "arcana-table/record"
VERSION = 1

# Game name in a record header -> module whose `RULES` object implements engine.protocol.Rules.
GAMES = {
    "res-arcana": "engine.resarcana",
    "arcana": "engine.arcana",
}


class RecordError(ValueError):
    """A record line that is not valid JSON, does not fit the format, or is illegal."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.line is not None else self.reason

    def at(self, line: int) -> RecordError:
        return RecordError(self.reason, line)


def rules_for(game: str) -> Rules[Any, Any]:
    """The rules object of a game named as in a record header."""
    if game not in GAMES:
        known = ", ".join(f'"{name}"' for name in GAMES)
        raise RecordError(f'unknown game "{game}" (known: {known})')
    return importlib.import_module(GAMES[game]).RULES


def parse_line(text: str) -> dict[str, Any]:
    """One record line as a JSON object, or RecordError with the reason."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(value, dict):
        raise RecordError("expected a JSON object")
    return value


def parse_header(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check a header line; return the game name and its setup object."""
    if obj.get("format") != FORMAT:
        raise RecordError(f'the first line must be a header with "format": "{FORMAT}"')
    if obj.get("version") != VERSION:
        raise RecordError(f"unsupported record version {obj.get('version')!r} (expected 1)")
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError('the header needs "game": "res-arcana" or "arcana"')
    setup = obj.get("setup")
    if not isinstance(setup, dict):
        raise RecordError('the header needs a "setup" object')
    return game, setup


def header(game: str, setup: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "setup": setup}


def load(lines: Iterable[str]) -> tuple[Rules[Any, Any], Any, list[Any]]:
    """Replay a record: its rules, the final state and the accepted actions."""
    numbered = [(n, text) for n, text in enumerate(lines, start=1) if text.strip()]
    if not numbered:
        raise RecordError("the record is empty; line 1 must be a header", 1)
    first_no, first = numbered[0]
    try:
        game, setup = parse_header(parse_line(first))
        rules = rules_for(game)
        state = rules.setup(setup)
    except RecordError as err:
        raise err.at(first_no) from None
    actions = []
    for number, text in numbered[1:]:
        try:
            action = rules.decode_action(parse_line(text))
        except RecordError as err:
            raise err.at(number) from None
        outcome = rules.apply(state, action)
        if isinstance(outcome, Rejection):
            raise RecordError(outcome.message, number)
        state = outcome.state
        actions.append(action)
    return rules, state, actions


def replay(lines: Iterable[str]) -> dict[str, Any]:
    """The replay result object of a record's lines (see `../spec/records.md`)."""
    rules, state, _ = load(lines)
    return rules.result(state)


def dumps(game: str, setup: dict[str, Any], action_lines: Iterable[dict[str, Any]]) -> str:
    """A record as JSON Lines text, one object per line, ending with a newline."""
    out = [json.dumps(header(game, setup), ensure_ascii=False)]
    out.extend(json.dumps(line, ensure_ascii=False) for line in action_lines)
    return "\n".join(out) + "\n"
