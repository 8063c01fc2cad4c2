"""`arcana-table demo`: short by default (one caption per action, the screens at the end),
every frame under the caption of its action with --frames, the screens per round with
--quiet."""

from __future__ import annotations

import re

import pytest

from firmware.cli import main

CAPTION = re.compile(r"^ *(\d+)\. (tap on [\w-]+|press \w+)( -> .+)?$")


def demo(capsys, *options: str) -> list[str]:
    assert main(["demo", "--game", "res-arcana", "--seed", "5", *options]) == 0
    return capsys.readouterr().out.splitlines()


def captions(lines: list[str]) -> list[re.Match]:
    return [m for line in lines if (m := CAPTION.match(line))]


def test_by_default_each_action_has_one_caption_line_and_the_screens_come_at_the_end(capsys):
    lines = demo(capsys)
    said = captions(lines)
    assert [int(m[1]) for m in said] == list(range(1, len(said) + 1))  # every step, in order
    assert any(m[3] and "played" in m[3] for m in said)  # what the action did
    assert any(m[3] and "passed" in m[3] for m in said)
    assert lines.count("=== the screens at the end ===") == 1
    end = lines.index("=== the screens at the end ===")
    assert all(not CAPTION.match(line) for line in lines[end:])
    frames = sum(line.startswith("--- ") for line in lines)
    assert frames == 6  # the status screen and the five pads, once
    assert len(lines) < len(said) + 6 * 40  # short: captions plus one set of screens


def test_frames_prints_every_change_under_its_actions_caption(capsys):
    lines = demo(capsys, "--frames")
    assert CAPTION.match(lines[0])  # the first thing printed is a caption
    said = captions(lines)
    frames = sum(line.startswith("--- ") for line in lines)
    assert frames > len(said)  # screens after (nearly) every action
    first_frame = next(i for i, line in enumerate(lines) if line.startswith("--- "))
    assert CAPTION.match(lines[first_frame - 1])


@pytest.mark.parametrize("game", ["arcana"])
def test_quiet_prints_the_screens_once_a_round_and_no_captions(capsys, game):
    assert main(["demo", "--game", game, "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not captions(lines)
    assert any(line.startswith("=== round ") for line in lines)
    assert lines[-1].strip() and "VP" in lines[-1]


def test_a_demo_warns_about_nothing_it_did_not_get_wrong(capsys, caplog):
    # The demo steps its table by hand (a scan cycle per tap on a manual clock): the gaps
    # between those cycles are no scan period, so no "absence_s is too short" for a newcomer.
    assert main(["demo", "--game", "arcana", "--seed", "1"]) == 0
    assert capsys.readouterr().out
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == []
    assert capsys.readouterr().err == ""
