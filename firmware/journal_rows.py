"""Reading the journal's rows back: each one is checked, so one bad row sets aside one game.

A row can be unreadable because a disk sector went bad, a hand edit went wrong or an older
program wrote it. The journal never lets such a row reach a caller as a traceback:

    read_game(row)         -> GameEntry, or raise UnreadableGame("its result is not ...")
    read_object(text, what) -> dict, or raise UnreadableGame("its setup is not JSON ...")

`UnreadableGame` is a `JournalError`: the sentence names the game and the reason.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

from firmware.errors import FirmwareError, Said


class JournalError(FirmwareError, RuntimeError):
    """The journal cannot keep an action (full disk, read-only directory, ...).

    The message is a sentence for the status screen and the service log; the action that
    caused it has not been acknowledged and must be treated as not taken. Made with a `code`
    (and its `params`), the message is a `Said`: the same sentence in another language for
    the web pages (`[web_refusal] <code>` of firmware/language, English word for word as the
    message), as the enrollment's errors carry theirs.
    """

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(Said(message, code, params) if code else message)

    @property
    def code(self) -> str | None:
        """The catalog key of the message, if it has one."""
        message = self.args[0] if self.args else None
        return message.key if isinstance(message, Said) else None

    @property
    def params(self) -> dict[str, Any]:
        """The values the catalog's sentence is filled with."""
        message = self.args[0] if self.args else None
        return dict(message.params) if isinstance(message, Said) else {}


class UnreadableGame(JournalError):
    """One game's rows cannot be read back; the other games are untouched."""

    def __init__(self, game: int, reason: str) -> None:
        super().__init__(
            f"game {game} cannot be read: {reason}",
            "journal_unreadable_game",
            game=game,
            reason=reason,
        )
        self.game, self.reason = game, reason


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One journalled game, as `arcana-table history` lists it."""

    id: int
    game: str
    started: float
    finished: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class SetAside:
    """A game (`game` is its id) or a whole journal file (`file`) kept aside, and why."""

    what: str  # "game 3" or "journal.sqlite3.damaged-20261201-183000"
    reason: str
    at: float | None


def read_object(game: int, text: Any, what: str) -> dict[str, Any]:
    """A stored JSON object (setup, result or action line), or UnreadableGame."""
    if not isinstance(text, str):
        raise UnreadableGame(game, f"its {what} is not text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise UnreadableGame(game, f"its {what} is not JSON ({err})") from None
    if not isinstance(value, dict):
        raise UnreadableGame(game, f"its {what} is not a JSON object")
    return value


def read_game(row: tuple[Any, ...]) -> GameEntry:
    """A `games` row (id, game, setup, started, finished, result) checked field by field."""
    game_id, name, setup, started, finished, result = row
    if not isinstance(name, str) or not name:
        raise UnreadableGame(game_id, "its game name is missing")
    read_object(game_id, setup, "setup")
    _timestamp(game_id, started, "start time")
    if finished is not None:
        _timestamp(game_id, finished, "finish time")
    outcome = None if result is None else read_object(game_id, result, "result")
    if outcome is not None:
        _check_result(game_id, outcome)
    done = None if finished is None else float(finished)
    return GameEntry(int(game_id), name, float(started), done, outcome)


def known_game(name: str) -> str | None:
    """None for a game the engine plays, else the reason (as the table would say it)."""
    from engine.records import GAMES

    return None if name in GAMES else f"this table does not play {name!r}"


def _timestamp(game: int, value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UnreadableGame(game, f"its {what} {value!r} is not a time")
    try:
        time.localtime(value)
    except (OverflowError, OSError, ValueError):
        raise UnreadableGame(game, f"its {what} {value!r} is out of range") from None


def _check_result(game: int, result: dict[str, Any]) -> None:
    """The fields `history` prints: an abandoned reason, or players, winners and round."""
    if "abandoned" in result:
        if not isinstance(result["abandoned"], str):
            raise UnreadableGame(game, "its result's abandoned reason is not text")
        return
    players = result.get("players", [])
    winners = result.get("winners", [])
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and _is_number(p.get("vp"))
        for p in players
    ):
        raise UnreadableGame(game, "its result's players are not names with points")
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise UnreadableGame(game, "its result's winners are not names")
    if "round" in result and not _is_number(result["round"]):
        raise UnreadableGame(game, "its result's round is not a number")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
