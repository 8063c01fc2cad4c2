"""A journal proven damaged is set aside by the first command that writes, and that is said
where people look: its stderr, the service log and `STATUS=`, and `history` afterwards.
Readers refuse a damaged journal in one sentence and rename nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from service import messages_until, start_service

from firmware.journal import FILENAME, Journal

SETUP = {"players": ["A", "B"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}


def not_a_database(state) -> str:
    (state / FILENAME).write_bytes(b"this is not a database at all\n" * 300)
    return "file is not a database"


def a_torn_page(state) -> str:
    """A real journal with one of its table pages overwritten (a bad SD-card sector)."""
    with Journal.open(state) as journal:
        game = journal.start("res-arcana", SETUP)
        for n in range(400):
            journal.append(game, {"player": n % 2, "action": "pass", "pad": "x" * 40})
    db = sqlite3.connect(state / FILENAME)
    (page_size,) = db.execute("PRAGMA page_size").fetchone()
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.close()
    with open(state / FILENAME, "r+b") as file:
        file.seek(page_size * (pages // 2))
        file.write(b"\xa5" * page_size)
    return "malformed"


DAMAGE = {"not a database": not_a_database, "a torn page": a_torn_page}


@pytest.fixture(params=DAMAGE)
def damaged(request, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    reason = DAMAGE[request.param](state)
    return state, reason, (state / FILENAME).read_bytes()


def arcana_table(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args], capture_output=True, text=True, timeout=60
    )


def asides(state) -> list[str]:
    return sorted(p.name for p in state.glob(f"{FILENAME}.damaged-*"))


def test_readers_refuse_a_damaged_journal_in_one_sentence_and_rename_nothing(damaged):
    state, reason, content = damaged
    for command in (["history"], ["export"], ["enroll", "--game", "res-arcana", "--list"]):
        done = arcana_table(*command, "--state-dir", str(state))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"arcana-table {command[0]}: The journal ")
        assert "damaged" in done.stderr and "nothing was changed" in done.stderr
        assert reason in done.stderr
        assert done.stderr.count("\n") == 1
    assert asides(state) == [] and (state / FILENAME).read_bytes() == content


@pytest.mark.parametrize("command", ["enroll", "demo"])
def test_a_writer_sets_it_aside_says_so_on_stderr_and_history_lists_it(damaged, command, tmp_path):
    state, _, content = damaged
    source = tmp_path / "tags.csv"
    source.write_text("04a1b2c3d4e5f6,seer_orb\n")
    args = {
        "enroll": ["enroll", "--game", "res-arcana", "--import", str(source)],
        "demo": ["demo", "--quiet", "--game", "res-arcana"],
    }[command]
    done = arcana_table(*args, "--state-dir", str(state))
    assert done.returncode == 0, done.stderr
    [said] = [line for line in done.stderr.splitlines() if "damaged" in line]
    assert said.startswith(f"arcana-table {command}: The journal {FILENAME} was damaged (")
    [aside] = [name for name in asides(state) if not name.endswith((".reason", "-wal", "-shm"))]
    assert said.endswith(f"kept as {aside}.")
    assert (state / aside).read_bytes() == content  # kept byte for byte
    history = arcana_table("history", "--state-dir", str(state))
    assert history.returncode == 0
    listed = [line for line in history.stdout.splitlines() if line.startswith("set aside")]
    assert len(listed) == 1 and f": {aside}: " in listed[0]
    again = arcana_table(*args, "--state-dir", str(state))  # said once: the new one is sound
    assert again.returncode == 0 and "damaged" not in again.stderr


def test_run_says_it_in_the_log_and_in_systemd_status(damaged, tmp_path):
    state, _, _ = damaged
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
    assert status.startswith(f"STATUS=choosing a game; set aside: The journal {FILENAME} was")
    assert "damaged" in status and "kept as" in status
    assert any(line.startswith("WARNING") and "was damaged" in line for line in log.splitlines())
