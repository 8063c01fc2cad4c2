"""`bench companion --phones N` and `bench appliance --web --phones N`: the web app served
beside the table while paired phones stream from it (the benches' figures are taken by
hand; these tests prove the benches measure what they say: a whole game, phones that
really fetched every screen change, a service that really answered them)."""

from __future__ import annotations

import argparse
import importlib
import io
from pathlib import Path

import pytest

from firmware.benchmarks import appliance, companion
from firmware.benchmarks.phones import StreamedTable
from firmware.commands.demo import CONTROLLERS, Demo
from firmware.games import GameShelf


def test_every_phone_fetches_every_screen_change_before_the_next_tap(tmp_path: Path) -> None:
    bot = importlib.import_module(CONTROLLERS["res-arcana"]).Bot(3, 2)
    with StreamedTable(tmp_path, GameShelf(), phones=3, players=2) as top:
        versions_seen: list[int] = []
        perform = top.perform

        def watched(step: object) -> None:
            perform(step)  # type: ignore[arg-type]
            versions_seen.append(top.live.version)

        top.perform = watched  # type: ignore[method-assign]
        result = Demo(top, quiet=True, out=io.StringIO()).play(bot)
        top._catch_up()
        fetched = dict(top.fetched)
        report = top.phones_report()
    assert result is not None  # the game was played to its end with the phones on
    assert len(set(versions_seen)) > 20  # the screens changed all game long...
    assert fetched == {0: versions_seen[-1], 1: versions_seen[-1], 2: versions_seen[-1]}
    assert report["errors"] == []
    assert all(count >= len(set(versions_seen)) for count in report["states"])  # ...each fetched


def test_back_to_back_taps_still_finish_the_game_and_phones_keep_up(tmp_path: Path) -> None:
    figures = companion.measure("arcana", 3, range(2, 3), phones=2, back_to_back=True)
    assert figures["finished"] == 1
    assert figures["states_fetched"] >= figures["taps"]  # two phones, refetching all along
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_runs_give_the_median_of_each_figure() -> None:
    runs = [
        {"finished": 1, "taps": 9, "p50_ms": p50, "p99_ms": p99, "max_ms": p99 + 1}
        for p50, p99 in ((3.0, 9.0), (1.0, 30.0), (2.0, 10.0))
    ]
    merged = companion.medians(runs)
    assert (merged["p50_ms"], merged["p99_ms"], merged["max_ms"]) == (2.0, 10.0, 11.0)
    assert merged["p99_ms_runs"] == [9.0, 30.0, 10.0]


def test_the_service_with_the_web_app_answers_the_phones_before_memory_is_read() -> None:
    args = argparse.Namespace(runs=1, game="res-arcana", actions=10, web=True, phones=2)
    figures = appliance.run(args)
    assert figures["web"] is True and figures["phones"] == 2
    assert figures["rss_mb_median"] > 10  # a running Python with aiohttp: read, not guessed


def test_more_than_eight_phones_are_refused_by_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    companion.configure(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--phones", "9"])
