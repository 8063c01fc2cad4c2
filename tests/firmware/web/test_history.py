"""The owner's history over the web app's API (aiohttp's TestClient against `make_app` on an
emulated table): the journalled games with their scores, a record that is byte for byte
what `arcana-table export` writes, a finished game's rounds, no secrets of a game in
progress, owner only, and a broken journal file that leaves the rest of the list."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from history_games import PREFIX, RES_SETUP, fixture_lines, journal_games
from service import Recorder

from engine.records import load, replay
from firmware import cli
from firmware.games import GameShelf
from firmware.journal import Journal, JournalError
from firmware.language import using
from firmware.service import Service, StopRequest, Watchdog
from firmware.table_loop import ServiceLoop
from firmware.web import history
from firmware.web.app import COOKIE, make_app
from firmware.web.live import LiveTable
from firmware.web.pairing import Pairing, Role
from hardware.profile import load_profile
from hardware.profile.web import WebSpec
from hardware.table import build_table

Answer = tuple[int, dict[str, str], bytes]
OWNER = Role.owner()


def ask(state_dir: Path, paths: list[str], role: Role | None = OWNER) -> list[Answer]:
    """GET each path from the web app of an emulated table on `state_dir` (its journal as
    it stands), as a phone paired with `role` (None: not paired)."""
    profile = load_profile("full-table")
    profile = dataclasses.replace(profile, web=WebSpec(True, 8080, True))
    pairing = Pairing(state_dir)
    cookies = {}
    if role is not None:
        _, token = pairing.redeem(pairing.offer(role).code, role.label)
        cookies = {COOKIE: token}
    table = build_table(profile, emulated=True)
    journal = Journal.open(state_dir)
    try:
        notifier = Recorder()
        service = Service(notifier, Watchdog(notifier, 0.5), StopRequest(signals=()))
        games = GameShelf.for_profile(profile)
        loop = ServiceLoop(table, journal, games, service)
        app = make_app(LiveTable(loop, profile, games), pairing, "127.0.0.1", 8080, True)

        async def fetch() -> list[Answer]:
            async with TestClient(TestServer(app), cookies=cookies) as client:
                out = []
                for path in paths:
                    answer = await client.get(path)
                    out.append((answer.status, dict(answer.headers), await answer.read()))
                return out

        # A thread of its own: the browser tests leave an event loop running on this one.
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, fetch()).result()
    finally:
        journal.close()
        table.close()


@pytest.fixture
def games(tmp_path) -> dict[str, int]:
    with Journal.open(tmp_path) as journal:
        return journal_games(journal)


def exported(state_dir: Path, game: int) -> bytes:
    out = state_dir / f"export-{game}.jsonl"
    assert cli.main(["export", str(game), "-o", str(out), "--state-dir", str(state_dir)]) == 0
    return out.read_bytes()


def test_the_list_has_every_game_with_its_date_players_and_scores(tmp_path, games) -> None:
    [(status, headers, body)] = ask(tmp_path, ["/api/history"])
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    listing = json.loads(body)
    assert listing["problem"] is None and listing["set_aside"] == []
    by_id = {entry["id"]: entry for entry in listing["games"]}
    assert list(by_id) == [games["finished"], games["in_progress"], games["res"]]
    done = by_id[games["finished"]]
    result = replay(exported(tmp_path, games["finished"]))
    assert done["status"] == "finished" and done["players"] == ["Ann", "Ben"]
    assert done["scores"] == [{"name": p["name"], "vp": p["vp"]} for p in result["players"]]
    assert done["winners"] == result["winners"] and done["round"] == result["round"]
    assert done["finished"] >= done["started"] > 0
    assert done["record"] is True and done["rounds"] is True
    going = by_id[games["in_progress"]]
    assert going["status"] == "in progress" and going["finished"] is None
    assert [s["name"] for s in going["scores"]] == going["players"] == ["Ann", "Ben"]
    assert going["record"] is False and going["rounds"] is False
    res = by_id[games["res"]]
    assert res["game"] == "res-arcana" and res["players"] == ["Cy", "Di"]
    assert res["problem"] is None and res["round"] == 1
    assert res["record"] is True  # the table never sees a Res Arcana hand: nothing secret


def test_the_list_names_no_card_of_a_game_in_progress(tmp_path, games) -> None:
    [(_, _, body)] = ask(tmp_path, ["/api/history"])
    lines = fixture_lines("2p_advanced.jsonl")[:PREFIX]
    cards = {line["card"] for line in lines[1:] if "card" in line}
    cards |= {task for kept in lines[0]["setup"]["tasks"] for task in kept}
    _, state, _ = load([json.dumps(line) for line in lines])
    face_down = {
        card for stake in state.stakes for side in stake.agents for card, down in side if down
    }
    assert face_down and state.tasks[0] and face_down | set(state.tasks[0]) <= cards
    shown = body.decode()
    assert [card for card in sorted(cards) if f'"{card}"' in shown or card in shown] == []


def test_a_download_is_the_bytes_export_writes(tmp_path, games) -> None:
    answers = ask(tmp_path, [f"/api/history/{games[n]}/record" for n in ("finished", "res")])
    for (status, headers, body), name in zip(answers, ("finished", "res"), strict=True):
        assert status == 200
        assert body == exported(tmp_path, games[name])
        assert headers["Content-Type"] == "application/x-ndjson; charset=utf-8"
        disposition = f'attachment; filename="arcana-table-game-{games[name]}.jsonl"'
        assert headers["Content-Disposition"] == disposition


def test_an_arcana_game_in_progress_is_neither_downloaded_nor_shown_by_rounds(
    tmp_path, games
) -> None:
    number = games["in_progress"]
    record, rounds = ask(
        tmp_path, [f"/api/history/{number}/record", f"/api/history/{number}/rounds"]
    )
    assert record[0] == 403
    assert f"arcana-table export {number}" in json.loads(record[2])["error"]
    assert b'"format"' not in record[2]
    assert rounds[0] == 409 and "once it is finished" in json.loads(rounds[2])["error"]


def test_a_finished_game_round_by_round(tmp_path, games) -> None:
    [(status, _, body)] = ask(tmp_path, [f"/api/history/{games['finished']}/rounds"])
    assert status == 200
    shown = json.loads(body)
    lines = fixture_lines("2p_basic.jsonl")
    result = replay([json.dumps(line) for line in lines])
    numbers = [r["round"] for r in shown["rounds"]]
    assert numbers == list(range(1, result["round"] + 1))
    plays = [play for r in shown["rounds"] for play in r["plays"]]
    assert len(plays) == len(lines) - 1  # every line, in its round
    # 2p_basic's first round, as the page shows it (its own words: a change is on purpose)
    said = [(p["player"], p["said"], p["events"]) for p in shown["rounds"][0]["plays"]]
    assert said[:4] == [
        ("Ann", "placed Ferrymen agent 1 on stake 3", []),
        ("Ben", "placed Blades agent 9 on stake 4 (face down)", []),
        (
            "Ann",
            "bribed with Ferrymen relic on stake 3",
            ["Bribe on stake 3 for Sample agent 41 succeeds (4 against 2)"],
        ),
        (None, "revealed Sample relic 21 on stake 3", []),
    ]
    assert said[9][2][:2] == [
        "Stake 1 (Sample location 6, financial 3): Ben wins (Ann 0, Ben 3)",
        "Stake 2 (Sample relic 9, financial 4): nobody wins (Ann 0, Ben 0)",
    ]
    assert shown["rounds"][0]["scores"] == [{"name": "Ann", "vp": 6}, {"name": "Ben", "vp": 8}]
    assert shown["rounds"][-1]["scores"] == [
        {"name": p["name"], "vp": p["vp"]} for p in result["players"]
    ]
    assert shown["winners"] == result["winners"]
    assert any(e.startswith("Game over: ") for e in plays[-1]["events"])


def test_only_the_owners_phone_sees_the_history(tmp_path, games) -> None:
    paths = ["/api/history", f"/api/history/{games['finished']}/record"]
    paths.append(f"/api/history/{games['finished']}/rounds")
    for role in (Role.of_seat(1), Role.spectator()):
        for status, _, body in ask(tmp_path, paths, role):
            assert status == 403 and "owner" in json.loads(body)["error"]
    for status, _, body in ask(tmp_path, paths, None):
        assert status == 401 and "not paired" in json.loads(body)["error"]


def test_unknown_and_malformed_game_numbers(tmp_path, games) -> None:
    missing, word = ask(tmp_path, ["/api/history/99/record", "/api/history/x1/rounds"])
    assert missing[0] == 404 and "no game 99" in json.loads(missing[2])["error"]
    assert word[0] == 400 and "number" in json.loads(word[2])["error"]


def test_a_broken_journal_file_and_an_unreadable_game_leave_the_rest_of_the_list(
    tmp_path, games
) -> None:
    aside = tmp_path / "journal.sqlite3.damaged-20261201-183000"
    aside.write_bytes(b"not a database")
    aside.with_name(f"{aside.name}.reason").write_text("1764613800\nfile is not a database\n")
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.execute("UPDATE games SET setup = '{broken' WHERE id = ?", (games["res"],))
    listing_answer, record = ask(tmp_path, ["/api/history", f"/api/history/{games['res']}/record"])
    listing = json.loads(listing_answer[2])
    assert [g["id"] for g in listing["games"]] == [games["finished"], games["in_progress"]]
    reasons = {entry["what"]: entry["reason"] for entry in listing["set_aside"]}
    assert reasons[aside.name] == "file is not a database"
    assert reasons[f"game {games['res']}"].startswith("its setup is not JSON")
    at = {entry["what"]: entry["at"] for entry in listing["set_aside"]}
    assert at[aside.name] == 1764613800.0
    refusal = json.loads(record[2])["error"]
    assert record[0] == 409 and "was set aside (its setup is not JSON" in refusal


def test_a_journal_that_cannot_be_opened_is_one_sentence_and_its_set_asides_still_show(
    tmp_path,
) -> None:
    (tmp_path / "journal.sqlite3").write_bytes(b"garbage, not SQLite" * 100)
    aside = tmp_path / "journal.sqlite3.damaged-20261130-120000"
    aside.write_bytes(b"older damage")
    listing = history.listing(tmp_path)
    assert listing["games"] == []
    assert "damaged" in listing["problem"] and "nothing was changed" in listing["problem"]
    assert [entry["what"] for entry in listing["set_aside"]] == [aside.name]
    assert (tmp_path / "journal.sqlite3").read_bytes().startswith(b"garbage")
    with pytest.raises(history.HistoryRefused, match="damaged") as refused:
        history.record(tmp_path, 1)
    assert refused.value.status == 503


def test_the_rounds_are_in_english_whatever_language_the_caller_is_in(tmp_path, games) -> None:
    with using("de"):
        shown = history.rounds(tmp_path, games["finished"])
    assert shown["rounds"][0]["plays"][0]["said"] == "placed Ferrymen agent 1 on stake 3"


def test_a_finished_german_games_rounds_are_german(tmp_path) -> None:
    done = fixture_lines("2p_basic.jsonl")
    with Journal.open(tmp_path) as journal:
        game = journal.start("arcana", {**done[0]["setup"], "language": "de"})
        result = replay([json.dumps(line) for line in done])
        for n, line in enumerate(done[1:], start=1):
            journal.append(game, line, result if n == len(done) - 1 else None)
    shown = history.rounds(tmp_path, game)  # the caller's language is English
    said = [(p["player"], p["said"], p["events"]) for p in shown["rounds"][0]["plays"]]
    assert said[:4] == [
        ("Ann", "Fährleute-Agent 1 gelegt (Zone 3)", []),  # the catalog's German names
        ("Ben", "Klingen-Agent 9 gelegt (Zone 4), verdeckt", []),
        (
            "Ann",
            "mit Fährleute-Relikt bestochen (Zone 3)",
            ["Bestechung in Zone 3 für Beispiel-Agent 41 gelingt (4 gegen 2)"],
        ),
        (None, "Beispiel-Relikt 21 aufgedeckt (Zone 3)", []),
    ]
    assert said[9][2][:2] == [
        "Zone 1 (Beispiel-Ort 6, Finanzielle Macht 3): Ben gewinnt (Ann 0, Ben 3)",
        "Zone 2 (Beispiel-Relikt 9, Finanzielle Macht 4): niemand gewinnt (Ann 0, Ben 0)",
    ]
    last = [e for r in shown["rounds"] for p in r["plays"] for e in p["events"]][-1]
    assert last.startswith("Spielende: ") and last.endswith(" SP")
    with using("fa"):  # an unknown language in an old journal's setup: English
        assert history._language({"language": "xx"}) is None


def test_a_failed_bribe_and_the_end_of_a_game_in_words() -> None:
    from engine.arcana import RULES
    from engine.arcana.events import Bribed, GameEnded

    state = RULES.setup(fixture_lines("2p_basic.jsonl")[0]["setup"])
    failed = Bribed(1, "blades_relic", 4, "m_agent_23", 1, {}, 1, 3, False, (), (), ((), ()), ())
    ended = GameEnded(9, "no_cards", (3, 4), ((), ()), (0, 2), (3, 6), (1,))
    said = list(history._events("arcana", state, (failed, ended), ["Ann", "Ben"]))
    assert said == [
        "Bribe on stake 5 for Sample agent 23 fails (1 against 3)",
        "Game over: Ann 3, Ben 6 VP",
    ]


def test_a_res_arcana_game_round_by_round(tmp_path) -> None:
    with Journal.open(tmp_path) as journal:
        game = journal.start("res-arcana", RES_SETUP)
        journal.append(
            game, {"player": 0, "action": "discard", "card": "brazier", "gain": {"gold": 1}}
        )
        # finished by hand (a game over for the journal, not for the rules): no winners
        journal.append(game, {"player": 1, "action": "pass"}, {"players": [
            {"name": "Cy", "vp": 0}, {"name": "Di", "vp": 0}], "round": 1})  # fmt: skip
    listing = history.listing(tmp_path)
    assert listing["games"][0]["winners"] == [] and listing["games"][0]["rounds"] is True
    shown = history.rounds(tmp_path, game)
    assert shown["winners"] == [] and shown["players"] == ["Cy", "Di"]
    plays = [(p["player"], p["said"], p["events"]) for p in shown["rounds"][0]["plays"]]
    assert plays == [("Cy", "discarded Brazier", []), ("Di", "passed", [])]


def test_an_abandoned_game_is_listed_as_such_and_keeps_its_secrets(tmp_path, games) -> None:
    with Journal.open(tmp_path) as journal:
        journal.finish(games["in_progress"], {"abandoned": "the players went home"})
    entry = history.listing(tmp_path)["games"][1]
    assert entry["status"] == "abandoned" and entry["problem"] == "abandoned: the players went home"
    assert entry["record"] is False and entry["rounds"] is False and entry["winners"] == []
    assert [s["name"] for s in entry["scores"]] == ["Ann", "Ben"]
    for fetch in (history.record, history.rounds):
        with pytest.raises(history.HistoryRefused) as refused:
            fetch(tmp_path, games["in_progress"])
        assert refused.value.status in (403, 409)
    with pytest.raises(history.HistoryRefused, match="is abandoned: its rounds show once"):
        history.rounds(tmp_path, games["in_progress"])


def test_an_abandoned_game_is_replayed_once_not_on_every_listing(
    tmp_path, games, monkeypatch
) -> None:
    """An abandoned game never changes: the list replays it once. A game in progress is
    replayed each time (it moves on)."""
    with Journal.open(tmp_path) as journal:
        journal.finish(games["in_progress"], {"abandoned": "the players went home"})
    replayed: list[int] = []
    real_record = Journal.record

    def counting_record(self, game_id):
        replayed.append(game_id)
        return real_record(self, game_id)

    monkeypatch.setattr(Journal, "record", counting_record)
    first = history.listing(tmp_path)
    assert sorted(replayed) == sorted([games["in_progress"], games["res"]])
    assert history.listing(tmp_path) == first
    assert history.listing(tmp_path) == first
    assert replayed.count(games["in_progress"]) == 1
    assert replayed.count(games["res"]) == 3  # in progress: replayed on every listing
    # The same game id in another state directory is another game: replayed there.
    other = tmp_path / "other"
    with Journal.open(other) as journal:
        ids = journal_games(journal)
        journal.finish(ids["in_progress"], {"abandoned": "a power cut"})
    assert history.listing(other)["games"][1]["problem"] == "abandoned: a power cut"
    assert replayed.count(games["in_progress"]) == 2


def test_an_abandoned_game_whose_replay_failed_is_tried_again(tmp_path, games, monkeypatch) -> None:
    with Journal.open(tmp_path) as journal:
        journal.finish(games["in_progress"], {"abandoned": "the players went home"})
    real_record = Journal.record
    failing = [True]

    def busy_then_fine(self, game_id):
        if failing[0]:
            raise JournalError("the journal is busy")
        return real_record(self, game_id)

    monkeypatch.setattr(Journal, "record", busy_then_fine)
    entry = history.listing(tmp_path)["games"][1]
    assert entry["problem"] == f"game {games['in_progress']} does not replay: the journal is busy"
    failing[0] = False
    entry = history.listing(tmp_path)["games"][1]
    assert entry["problem"] == "abandoned: the players went home"
    assert [s["name"] for s in entry["scores"]] == ["Ann", "Ben"]


def test_a_game_that_no_longer_replays_is_named_with_its_line(tmp_path, games) -> None:
    undecodable = {"player": 0, "action": ["agent"]}
    illegal = {"player": 0, "action": "agent", "card": "nobody", "stake": 0}
    with Journal.open(tmp_path) as journal:  # the game in progress "finished" by hand
        journal.finish(games["in_progress"], {"players": [], "winners": []})
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        for game, line in ((games["finished"], undecodable), (games["in_progress"], illegal)):
            db.execute(
                "UPDATE lines SET line = ? WHERE game = ? AND seq = 1", (json.dumps(line), game)
            )
        db.execute("UPDATE lines SET line = ? WHERE game = ?", (json.dumps(illegal), games["res"]))
    entry = history.listing(tmp_path)["games"][2]
    assert entry["problem"].startswith(f"game {games['res']} does not replay: line 2: ")
    assert entry["players"] == ["Cy", "Di"] and entry["scores"] is None  # from its setup
    for game, reason in (
        (games["finished"], "unknown action"),
        (games["in_progress"], "Usurers to play"),
    ):
        with pytest.raises(history.HistoryRefused) as refused:
            history.rounds(tmp_path, game)
        assert refused.value.status == 422
        said = refused.value.message
        assert said.startswith(f"Game {game} no longer replays: line 2: ") and reason in said


KEYS = {"id", "game", "started", "finished", "status", "record", "rounds", "players", "scores",
        "winners", "round", "problem"}  # fmt: skip


def test_every_entry_has_the_same_fields_whatever_became_of_its_game(tmp_path, games) -> None:
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.execute("UPDATE lines SET line = '{}' WHERE game = ?", (games["res"],))
    entries = history.listing(tmp_path)["games"]
    assert [entry["status"] for entry in entries] == ["finished", "in progress", "in progress"]
    assert [set(entry) for entry in entries] == [KEYS] * 3
    assert entries[2]["round"] is None and entries[2]["winners"] == []
    assert (
        entries[1]["round"] == 1 and entries[1]["winners"] == [] and entries[1]["problem"] is None
    )
    shown = history.rounds(tmp_path, games["finished"])
    assert set(shown) == {"id", "game", "players", "winners", "rounds"}
    assert (shown["id"], shown["game"]) == (games["finished"], "arcana")
    assert all(set(r) == {"round", "plays", "scores"} for r in shown["rounds"])


def test_an_arcana_game_that_does_not_replay_still_names_its_players(tmp_path, games) -> None:
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.execute("UPDATE lines SET line = '{}' WHERE game = ?", (games["in_progress"],))
    entry = history.listing(tmp_path)["games"][1]
    assert entry["players"] == ["Ann", "Ben"] and entry["problem"].startswith(
        f"game {games['in_progress']} does not replay: line 2: "
    )
