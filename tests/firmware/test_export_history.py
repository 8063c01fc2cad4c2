"""`arcana-table export` and `history` read the journal (games come from the companion)."""

from __future__ import annotations

import json
import random

from firmware import cli
from firmware.journal import Journal

SETUP = {"players": ["Ann", "Ben"], "start_player": 0}


def test_export_writes_the_latest_game_as_a_record(tmp_path, capsys):
    with Journal.open(tmp_path) as journal:
        journal.start("res-arcana", {"players": ["Old"]})
        game = journal.start("res-arcana", SETUP)
        journal.append(game, {"player": 0, "action": "pass"})
    assert cli.main(["export", "--state-dir", str(tmp_path)]) == 0
    header, action = capsys.readouterr().out.splitlines()
    assert json.loads(header)["setup"] == SETUP
    assert json.loads(action) == {"player": 0, "action": "pass"}


def test_export_a_named_game_to_a_file(tmp_path):
    with Journal.open(tmp_path) as journal:
        first = journal.start("res-arcana", {"players": ["Old"]})
        journal.start("res-arcana", SETUP)
    out = tmp_path / "first.jsonl"
    assert cli.main(["export", str(first), "-o", str(out), "--state-dir", str(tmp_path)]) == 0
    assert json.loads(out.read_text().splitlines()[0])["setup"] == {"players": ["Old"]}


def test_export_of_an_unknown_game_says_so(tmp_path, capsys):
    with Journal.open(tmp_path) as journal:
        journal.start("res-arcana", SETUP)
    assert cli.main(["export", "9", "--state-dir", str(tmp_path)]) == 2
    assert "no game 9" in capsys.readouterr().err


def test_export_of_an_empty_journal_says_so(tmp_path, capsys):
    assert cli.main(["export", "--state-dir", str(tmp_path)]) == 2
    assert "no game yet" in capsys.readouterr().err


def test_history_lists_winners_and_scores(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ARCANA_TABLE_STATE_DIR", str(tmp_path))
    with Journal.open(tmp_path) as journal:
        done = journal.start("res-arcana", SETUP)
        journal.finish(
            done,
            {
                "round": 6,
                "winners": ["Ann"],
                "players": [{"name": "Ann", "vp": 11}, {"name": "Ben", "vp": 8}],
            },
        )
        journal.start("arcana", SETUP)
    assert cli.main(["history"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert "won by Ann (Ann 11, Ben 8) in round 6" in first
    assert "in progress" in second


def test_a_state_dir_that_cannot_be_used_is_one_sentence_and_exit_2(tmp_path, capsys):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    for command in (["export"], ["history"], ["enroll", "--game", "res-arcana", "--list"]):
        assert cli.main([*command, "--state-dir", str(blocked)]) == 2
        err = capsys.readouterr().err
        # All three only read: they create nothing, not even the directory.
        assert err.startswith(f"arcana-table {command[0]}: cannot use the state directory")
        assert err.count("\n") == 1 and blocked.read_text() == "not a directory"


def test_export_of_an_arcana_game_in_progress_names_its_secrets_and_says_so(tmp_path, capsys):
    from engine.arcana import random_setup

    setup = random_setup(random.Random(1), 2)
    owner = setup["start_player"]
    with Journal.open(tmp_path) as journal:
        game = journal.start("arcana", setup)
        agent = {"player": owner, "action": "agent", "stake": 2 * owner}
        journal.append(game, {**agent, "card": f"{setup['players'][owner]['guild']}_agent_1"})
    assert cli.main(["export", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert f"{setup['players'][owner]['guild']}_agent_1" in out.out  # the owner's archive
    assert "note: game 1 is in progress; its record names the face-down agents" in out.err
