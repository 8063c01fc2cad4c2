"""Game records (JSON Lines, `../spec/records.md`): read, write and replay.

    result = replay(Path("game.jsonl").read_bytes())

A malformed or illegal line raises `RecordError` with its 1-based line number; the caller
(`arcana-table replay`) prints `line N: <reason>` and exits 2. What "malformed" covers
(docs/records.md): lines are split at "\n" only (never at U+2028 inside a string), each
must be UTF-8, one JSON object, at most MAX_DEPTH levels deep, with no number longer than
MAX_DIGITS digits, no NaN or Infinity and no lone surrogate in any string.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from typing import Any, NoReturn

from engine.protocol import EngineError, Rejection, Rules

FORMAT = "arcana-table/record"
VERSION = 1
MAX_DEPTH = 32  # a header with an inline catalog is 6 levels deep
MAX_DIGITS = 15  # seats, stakes, amounts, VP: no number in a game comes near
JSON_SPACE = " \t\r"  # with "\n", the only whitespace of JSON: U+2028 is not a line break

# Game name in a record header -> module whose `RULES` object implements engine.protocol.Rules.
GAMES = {
    "res-arcana": "engine.resarcana",
    "arcana": "engine.arcana",
}


class RecordError(EngineError, ValueError):
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
        raise RecordError(f"unknown game {shown(game)} (known: {known})")
    return importlib.import_module(GAMES[game]).RULES


def shown(value: Any, limit: int = 40) -> str:
    """A value as a player may see it in a refusal: its repr, cut short."""
    return _cut(repr(value), limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def split(record: str | bytes) -> list[str]:
    r"""The lines of a record's text, split at "\n" only (JSON Lines); bytes must be UTF-8.

    >>> split('{"name": "A\u2028B"}\n')
    ['{"name": "A\u2028B"}', '']
    """
    if isinstance(record, str):
        return record.split("\n")
    lines = []
    for number, raw in enumerate(record.split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            reason = f"not UTF-8 text (byte {err.start + 1} of the line)"
            raise RecordError(reason, number) from None
    return lines


def parse_line(text: str) -> dict[str, Any]:
    """One record line as a JSON object, or RecordError with the reason."""
    try:
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise RecordError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        _too_deep()
    if not isinstance(value, dict):
        raise RecordError("expected a JSON object")
    _check_values(value)
    return value


def _integer(digits: str) -> int:
    length = len(digits.lstrip("-"))
    if length > MAX_DIGITS:
        raise RecordError(f"a number of {length} digits (at most {MAX_DIGITS} in a record)")
    return int(digits)


def _constant(name: str) -> NoReturn:
    raise RecordError(f"{name} is not a JSON number")


def _too_deep() -> NoReturn:
    raise RecordError(f"nested deeper than {MAX_DEPTH} levels")


def _check_values(value: dict[str, Any]) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings that are not Unicode text (a lone
    surrogate such as "\\ud800" cannot be written out as UTF-8 again)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = [*item, *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, str) and not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError as err:
                    code = f"\\u{ord(item[err.start]):04x}"
                    raise RecordError(f"a string holds a lone surrogate ({code})") from None
            continue
        if depth > MAX_DEPTH:
            _too_deep()
        stack.extend((child, depth + 1) for child in children)


def parse_header(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check a header line; return the game name and its setup object."""
    if obj.get("format") != FORMAT:
        raise RecordError(f'the first line must be a header with "format": "{FORMAT}"')
    version = obj.get("version")
    if type(version) is not int or version != VERSION:  # true and 1.0 equal 1 in Python
        written = _cut(json.dumps(version, ensure_ascii=False), 40)  # as the line has it
        raise RecordError(f"unsupported record version {written} (expected 1)")
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError('the header needs "game": "res-arcana" or "arcana"')
    setup = obj.get("setup")
    if not isinstance(setup, dict):
        raise RecordError('the header needs a "setup" object')
    return game, setup


def header(game: str, setup: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "setup": setup}


def load(record: str | bytes | Iterable[str]) -> tuple[Rules[Any, Any], Any, list[Any]]:
    """Replay a record (its text, or its lines as `split` gives them): its rules, the final
    state and the accepted actions."""
    lines = split(record) if isinstance(record, str | bytes) else record
    numbered = [(n, text) for n, text in enumerate(lines, start=1) if text.strip(JSON_SPACE)]
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


def replay(record: str | bytes | Iterable[str]) -> dict[str, Any]:
    """The replay result object of a record (see `../spec/records.md`)."""
    rules, state, _ = load(record)
    return rules.result(state)


def dumps(game: str, setup: dict[str, Any], action_lines: Iterable[dict[str, Any]]) -> str:
    """A record as JSON Lines text, one object per line, ending with a newline."""
    out = [json.dumps(header(game, setup), ensure_ascii=False)]
    out.extend(json.dumps(line, ensure_ascii=False) for line in action_lines)
    return "\n".join(out) + "\n"
