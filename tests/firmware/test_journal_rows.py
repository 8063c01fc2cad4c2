"""A game whose rows cannot be read is set aside alone, with its reason; the table starts.

Every kind of bad row: not JSON, not an object, not text, an unknown or missing game name,
a line that no longer replays, a malformed result, a start or finish time that is no time.
Game 1 is finished, game 2 is in progress; one of them is damaged by hand (as a bad sector or
a bad edit would) and everything that reads the journal is run on it: `history`, `export`,
the table itself (as `sim` and `run` start it), `run --emulated` with its systemd status.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from service import messages_until, start_service

from firmware.games import GameShelf
from firmware.journal import FILENAME, Journal
from firmware.tabletop import EmulatedTable

SETUP = {"players": ["A", "B"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}
LINE = {"player": 0, "action": "pass"}
RESULT = {
    "game": "res-arcana",
    "round": 3,
    "finished": True,
    "winners": ["A"],
    "players": [{"name": "A", "vp": 10}, {"name": "B", "vp": 3}],
}


def game_row(game: int, column: str, value: str) -> tuple[int, str, str]:
    return game, f"UPDATE games SET {column} = {value} WHERE id = {game}", ""


def line_row(game: int, value: str) -> tuple[int, str, str]:
    return game, f"UPDATE lines SET line = {value} WHERE game = {game}", ""


# kind: (game damaged, SQL that damages it, what the reason says)
DAMAGE = {
    kind: (game, sql, reason)
    for kind, (game, sql, _), reason in [
        ("setup not JSON", game_row(2, "setup", "'{\"players\":'"), "setup is not JSON"),
        ("setup not an object", game_row(2, "setup", "'[1, 2]'"), "setup is not a JSON object"),
        ("unknown game", game_row(2, "game", "'chess'"), "does not play 'chess'"),
        ("no game name", game_row(2, "game", "''"), "game name is missing"),
        ("line not JSON", line_row(2, "'{\"player\": 0,'"), "line 1 is not JSON"),
        ("line not an object", line_row(2, "'\"pass\"'"), "line 1 is not a JSON object"),
        ("line not text", line_row(2, "X'00ff'"), "line 1 is not text"),
        (
            "line no longer replays",
            line_row(2, '\'{"player": 1, "action": "pass"}\''),
            "no longer replays",
        ),
        ("start time not a time", game_row(2, "started", "'noon'"), "'noon' is not a time"),
        ("start time out of range", game_row(2, "started", "1e300"), "out of range"),
        ("result not JSON", game_row(1, "result", "'{\"winners'"), "result is not JSON"),
        (
            "result players malformed",
            game_row(1, "result", "'{\"players\": 5}'"),
            "players are not names with points",
        ),
        (
            "result winners malformed",
            game_row(1, "result", '\'{"winners": "A"}\''),
            "winners are not names",
        ),
        ("finish time not a time", game_row(1, "finished", "'soon'"), "'soon' is not a time"),
    ]
}


@pytest.fixture(params=DAMAGE)
def damaged(request, tmp_path):
    """(state dir, damaged game, the other game, reason fragment, the raw row before)."""
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        first = journal.start("res-arcana", SETUP)
        journal.append(first, LINE, RESULT)
        second = journal.start("res-arcana", SETUP)
        journal.append(second, LINE)
    game, sql, reason = DAMAGE[request.param]
    db = sqlite3.connect(state / FILENAME)
    with db:
        db.execute(sql)
    db.close()
    return state, game, 3 - game, reason


def arcana_table(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, **env),
    )


def names(state) -> list[str]:
    return sorted(p.name for p in state.iterdir() if not p.name.endswith(("-wal", "-shm")))


def raw_rows(state) -> list[tuple]:
    db = sqlite3.connect(f"file:{state / FILENAME}?mode=ro", uri=True)
    rows = db.execute("SELECT * FROM games").fetchall()
    rows += db.execute("SELECT * FROM lines").fetchall()
    db.close()
    return rows


REPLAY_ONLY = {"line no longer replays"}  # readers see it once the table has tried to replay
RECORD_KEPT = {"unknown game", "line no longer replays"}  # its record can still be exported


def test_history_and_export_name_the_game_set_aside_and_show_the_other(damaged, request):
    state, game, other, reason = damaged
    kind = request.node.callspec.params["damaged"]
    if kind in REPLAY_ONLY:
        EmulatedTable(state, GameShelf()).close()  # the table tried to resume it: set aside
    before, rows = names(state), raw_rows(state)
    history = arcana_table("history", "--state-dir", str(state))
    assert history.returncode == 0 and history.stderr == ""
    *listed, aside = history.stdout.splitlines()
    assert aside.startswith("set aside") and f" game {game}: " in aside and reason in aside
    [kept] = listed
    assert kept.split()[0] == str(other)
    export = arcana_table("export", str(game), "--state-dir", str(state))
    assert "Traceback" not in export.stderr and export.stderr.count("\n") == 1
    assert export.stderr.startswith(f"arcana-table export: game {game} ")
    assert reason in export.stderr
    if kind in RECORD_KEPT:  # the rows read: the record is written, with a word on stderr
        assert export.returncode == 0 and export.stdout.count("\n") == 2
    else:
        assert export.returncode == 2 and export.stdout == ""
    assert arcana_table("export", str(other), "--state-dir", str(state)).returncode == 0
    assert names(state) == before and raw_rows(state) == rows  # read-only: nothing changed


def test_the_table_starts_and_sets_the_game_aside_alone(damaged):
    state, game, other, reason = damaged
    before, rows = names(state), raw_rows(state)
    with EmulatedTable(state, GameShelf()) as top:
        companion = top.companion
        if game == 2:  # the game in progress: set aside, the table shows the game choice
            assert companion.game_id is None
            [said] = companion.set_asides
            assert said.startswith(f"game {game} ") and reason in said
        else:  # a finished game's bad result stops nothing: game 2 resumes
            assert companion.game_id == other and companion.set_asides == []
            assert top.journal.lines(other) == [LINE]
        [aside] = top.journal.set_aside()
        assert aside.what == f"game {game}" and reason in aside.reason
        assert [entry.id for entry in top.journal.games()] == [other]
    with EmulatedTable(state, GameShelf()) as top:  # restarted: still aside, said once only
        assert top.companion.set_asides == []
        assert [a.what for a in top.journal.set_aside()] == [f"game {game}"]
    assert names(state) == before
    assert raw_rows(state) == rows  # the rows are kept as they were, for whoever mends them


@pytest.mark.parametrize("kind", ["line not JSON", "unknown game", "setup not JSON"])
def test_run_starts_and_tells_the_log_and_systemd_status(tmp_path, kind):
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        game = journal.start("res-arcana", SETUP)
        journal.append(game, LINE)
    _, sql, reason = DAMAGE[kind]
    db = sqlite3.connect(state / FILENAME)
    with db:
        db.execute(sql.replace("= 2", f"= {game}"))  # the only game: number 1
    db.close()
    process, listener = start_service(tmp_path, state=state, timeout_s=30)
    try:
        ready = messages_until(listener, "READY=1")[-1]
        process.terminate()
        _, log = process.communicate(timeout=10)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0
    [status] = [field for field in ready.split("\n") if field.startswith("STATUS=")]
    assert status.startswith("STATUS=choosing a game; set aside: game 1 ") and reason in status
    assert "Traceback" not in log
    assert any(line.startswith("WARNING") and reason in line for line in log.splitlines())


def test_sim_starts_on_a_journal_with_an_unreadable_game(tmp_path):
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        game = journal.start("res-arcana", SETUP)
        journal.append(game, LINE)
    db = sqlite3.connect(state / FILENAME)
    with db:
        db.execute("UPDATE lines SET line = 'not json' WHERE game = ?", (game,))
    db.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware", "sim", "--port", "0", "--state-dir", str(state)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        opened = process.stdout.readline()  # serving: it did not crash at start
        process.terminate()
        _, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert opened.startswith("arcana-table sim: open http://")
    assert err.startswith(f"arcana-table sim: game {game} cannot be read: its line 1 is not JSON")
    assert "Traceback" not in err


GOOD_ROW = (7, "res-arcana", '{"players": ["A", "B"]}', 1000.0, 2000, None)


def row(**changed) -> tuple:
    names = ("id", "game", "setup", "started", "finished", "result")
    fields = dict(zip(names, GOOD_ROW, strict=True))
    return tuple({**fields, **changed}.values())


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (row(game=None), "its game name is missing"),
        (row(game=""), "its game name is missing"),
        (row(setup=None), "its setup is not text"),
        (row(setup="[1]"), "its setup is not a JSON object"),
        (row(started=True), "its start time True is not a time"),
        (row(started="noon"), "its start time 'noon' is not a time"),
        (row(started=float("nan")), "its start time nan is not a time"),
        (row(started=1e300), "its start time 1e+300 is out of range"),
        (row(finished=float("inf")), "its finish time inf is not a time"),
        (row(result="7"), "its result is not a JSON object"),
        (row(result='{"abandoned": 3}'), "its result's abandoned reason is not text"),
        (row(result='{"players": 5}'), "its result's players are not names with points"),
        (row(result='{"players": [5]}'), "its result's players are not names with points"),
        (
            row(result='{"players": [{"name": 1, "vp": 2}]}'),
            "its result's players are not names with points",
        ),
        (
            row(result='{"players": [{"name": "A", "vp": "2"}]}'),
            "its result's players are not names with points",
        ),
        (
            row(result='{"players": [{"name": "A", "vp": true}]}'),
            "its result's players are not names with points",
        ),
        (row(result='{"winners": "A"}'), "its result's winners are not names"),
        (row(result='{"winners": [1]}'), "its result's winners are not names"),
        (row(result='{"round": "3"}'), "its result's round is not a number"),
        (row(result='{"round": false}'), "its result's round is not a number"),
    ],
)
def test_each_bad_field_of_a_game_row_is_named_with_its_game(bad, reason):
    from firmware.journal_rows import UnreadableGame, read_game

    with pytest.raises(UnreadableGame) as caught:
        read_game(bad)
    assert (caught.value.game, caught.value.reason) == (7, reason)
    assert str(caught.value) == f"game 7 cannot be read: {reason}"


def test_a_game_row_that_reads_is_every_field_as_history_lists_it():
    from firmware.journal_rows import GameEntry, read_game

    assert read_game(GOOD_ROW) == GameEntry(7, "res-arcana", 1000.0, 2000.0, None)
    running = read_game(row(finished=None, started=5))
    assert running == GameEntry(7, "res-arcana", 5.0, None, None)
    assert isinstance(running.started, float)
    abandoned = {"abandoned": "left at round 2", "players": 5}  # only the reason is read
    entry = read_game(row(result=json.dumps(abandoned)))
    assert entry.result == abandoned
    assert read_game(row(result="{}")).result == {}  # no players, no winners: an empty ranking
    ranked = {"players": [{"name": "A", "vp": 2.5}], "winners": ["A"], "round": 4}
    assert read_game(row(result=json.dumps(ranked))).result == ranked


def test_a_stored_object_that_is_not_json_says_why_and_which_part():
    from firmware.journal_rows import UnreadableGame, read_object

    with pytest.raises(UnreadableGame) as caught:
        read_object(3, '{"a":', "line 12")
    assert caught.value.game == 3
    assert caught.value.reason.startswith("its line 12 is not JSON (Expecting value")
    with pytest.raises(UnreadableGame, match=r"^game 3 cannot be read: its line 2 is not JSON \("):
        read_object(3, "[" * 100_000 + "]" * 100_000, "line 2")  # too deep for json
    assert read_object(3, '{"a": 1}', "setup") == {"a": 1}


def test_a_game_the_engine_does_not_play_is_named():
    from firmware.journal_rows import known_game

    assert known_game("res-arcana") is None and known_game("arcana") is None
    assert known_game("chess") == "this table does not play 'chess'"
