"""The journal's errors passed on to the web pages come in the page's language: each error the
journal makes has a code and its values (firmware/journal*.py), its English the journal's
message word for word, said from `[web_refusal]` in German and Persian; the history's
answers (a journal that cannot be read: 503, and the list's problem) say it so."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from aiohttp import web
from history_games import RES_SETUP, journal_games

from firmware.journal import FILENAME, Journal, JournalDamaged, JournalError, UnreadableGame
from firmware.journal import _write_failure as write_failure
from firmware.journal_file import explain
from firmware.language import load
from firmware.web import guard, history_routes
from firmware.web.running import Running
from firmware.web.sentences import from_error, in_language

STATE = Path("/state/journal.sqlite3")


def sqlite_error(name: str | None, message: str) -> sqlite3.Error:
    err = sqlite3.DatabaseError(message)
    if name is not None:
        err.sqlite_errorname = name
    return err


def every_error(tmp_path: Path) -> list[JournalError]:
    """One error of each kind the journal says (opening, writing, a game's rows, a folder)."""
    opened = [
        explain(STATE, sqlite_error(name, message), 2.5)
        for name, message in [
            ("SQLITE_BUSY", "database is locked"),
            ("SQLITE_NOTADB", "file is not a database"),
            ("SQLITE_FULL", "database or disk is full"),
            ("SQLITE_READONLY", "attempt to write a readonly database"),
            ("SQLITE_IOERR_WRITE", "disk I/O error"),
            ("SQLITE_MISUSE", "bad parameter or other API misuse"),
        ]
    ]
    written = [
        write_failure(STATE, sqlite3.OperationalError(message))
        for message in [
            "database is locked",
            "database or disk is full",
            "attempt to write a readonly database",
            "disk I/O error",
            "no such table: lines",
        ]
    ]
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(JournalError) as folder:
        Journal.open(tmp_path / "file", read_only=True)
    (tmp_path / FILENAME).write_bytes(b"garbage, not SQLite" * 100)
    with pytest.raises(JournalDamaged) as kept:
        Journal.open(tmp_path, read_only=True)
    unreadable = UnreadableGame(3, "its setup is not JSON")
    table = tmp_path / "table"
    with Journal.open(table), pytest.raises(JournalError) as held:
        Journal.open(table, busy_s=0)  # another table has it
    return [*opened, *written, folder.value, kept.value, unreadable, held.value]


def test_each_journal_error_has_a_code_whose_english_is_its_message_word_for_word(tmp_path):
    errors = every_error(tmp_path)
    for err in errors:
        assert err.code is not None, err
        assert load("en").text(f"web_refusal.{err.code}", **err.params) == str(err)  # its values
        assert from_error(err) == str(err)
        assert in_language(from_error(err), "en") == str(err)
    keys = {k for k in load("en").texts if k.startswith("web_refusal.journal_")}
    assert {f"web_refusal.{err.code}" for err in errors} == keys  # every key is said


@pytest.mark.parametrize("code", ["de", "fa"])
def test_each_journal_error_is_said_in_the_pages_language_with_its_values(tmp_path, code):
    language = load(code)
    for err in every_error(tmp_path):
        shown = in_language(from_error(err), code)
        assert shown == language.text(f"web_refusal.{err.code}", **err.params)
        assert shown != str(err)
        for value in err.params.values():  # paths, SQLite's own words: as they are
            assert str(value) in shown, (err.code, value, shown)


def test_an_error_without_a_code_is_passed_on_as_it_is():
    plain = JournalError("a sentence of its own")
    assert from_error(plain) == "a sentence of its own"
    assert in_language(from_error(plain), "de") == "a sentence of its own"
    assert from_error(ValueError("no code at all")) == "no code at all"
    assert from_error(ValueError()) == ""


def history_of(state_dir: Path, code: str, paths: list[str]) -> list[tuple[int, dict]]:
    """GET each path of the history's routes on `state_dir`, the page's language `code`."""

    async def language(request: web.Request) -> str | None:
        return code

    app = guard.application(None, language=language)
    history_routes.add_routes(app, state_dir, lambda request: None)
    out = []
    with Running(app) as served:
        for path in paths:
            try:
                with urllib.request.urlopen(served.url + path, timeout=30) as answer:
                    out.append((answer.status, json.load(answer)))
            except urllib.error.HTTPError as err:
                with err:
                    out.append((err.code, json.load(err)))
    return out


@pytest.mark.parametrize("code", ["de", "fa"])
def test_a_journal_the_history_cannot_read_is_said_in_the_pages_language(tmp_path, code):
    damaged = tmp_path / FILENAME
    damaged.write_bytes(b"garbage, not SQLite" * 100)
    with pytest.raises(JournalDamaged) as opening:
        Journal.open(tmp_path, read_only=True)
    said = load(code).text("web_refusal.journal_damaged_kept", **opening.value.params)
    (status, listing), (refused, record) = history_of(
        tmp_path, code, ["api/history", "api/history/1/record"]
    )
    assert (status, listing["games"], listing["problem"]) == (200, [], said)
    assert (refused, record) == (503, {"error": said})
    assert damaged.read_bytes() == b"garbage, not SQLite" * 100  # nothing changed


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_lists_problems_of_a_game_are_said_in_the_pages_language(tmp_path, code):
    language = load(code)
    with Journal.open(tmp_path) as journal:
        ids = journal_games(journal)
        journal.finish(ids["in_progress"], {"abandoned": "the players went home"})
        broken = journal.start("res-arcana", RES_SETUP)
        journal.append(broken, {"player": 0, "action": "no such action"})
    ((status, listing),) = history_of(tmp_path, code, ["api/history"])
    problems = {game["id"]: game["problem"] for game in listing["games"]}
    assert status == 200 and problems[ids["finished"]] is None
    abandoned = language.text("web_refusal.game_abandoned_because", reason="the players went home")
    assert problems[ids["in_progress"]] == abandoned  # the journal's reason as it was given
    start = language.text("web_refusal.game_does_not_replay", game=broken, error="@")
    assert problems[broken].startswith(start.partition("@")[0]), problems[broken]
    assert not problems[broken].startswith("game ")  # not the English frame
