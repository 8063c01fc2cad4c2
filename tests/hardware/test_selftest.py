"""The self-test on emulated tables: the same code as on the Pi, faults reported by name."""

from __future__ import annotations

import pytest

from firmware import cli
from hardware.profile import load_profile
from hardware.selftest import calibration_pattern, run_selftest
from hardware.table import build_table


@pytest.fixture
def table():
    with build_table(load_profile("full-table"), emulated=True) as table:
        yield table


def selftest(table, skip=(), timeout=0.05):
    prompts = []

    def finger(role):
        if role not in skip:
            table.press(role)

    report = run_selftest(table, button_timeout_s=timeout, prompt=prompts.append, finger=finger)
    return report, prompts


def test_a_healthy_table_passes_every_part(table):
    report, prompts = selftest(table)
    assert report.ok
    assert [c.part for c in report.checks] == ["reader"] * 5 + ["display"] * 6 + ["button"] * 3 + [
        "buzzer"
    ]
    assert "PN532 firmware 1.6" in report.checks[0].detail
    assert prompts == [f"press the {r} button (GPIO{p}) within 0.05 s"
                       for r, p in (("UNDO", 17), ("SELECT", 27), ("OK", 22))]  # fmt: skip
    assert report.text().endswith("all parts work")
    assert table.buzzer.played == ["ok", "unknown", "refused"]


def test_each_display_shows_the_test_pattern_and_the_status_screen_the_prompts(table):
    selftest(table)
    stake = table.displays["stake-2"]
    assert stake.frame().tobytes() == calibration_pattern((128, 64), "stake-2").tobytes()
    # the last prompt stays on the status screen
    assert (
        table.displays["status"].frame().tobytes()
        != calibration_pattern((128, 64), "status").tobytes()
    )


def test_an_unplugged_reader_is_reported_and_the_others_pass(table):
    table.pads["stake-2"].fail("unplugged")
    report, _ = selftest(table)
    assert not report.ok
    (fault,) = report.faults
    assert fault.name == "reader stake-2 (spi0 cs GPIO13)"
    assert fault.detail.startswith("does not answer")
    assert "FAIL  reader stake-2 (spi0 cs GPIO13): does not answer" in report.text()
    assert report.text().endswith("1 fault found")


def test_a_reader_that_answers_nonsense_is_reported(table):
    table.pads["stake-0"].fail("bad_checksum")
    report, _ = selftest(table)
    assert [f.name for f in report.faults] == ["reader stake-0 (spi0 cs GPIO5)"]


def test_an_unplugged_display_and_an_unpressed_button_are_reported(table):
    table.wiring.i2c_bus(24).unplug(0x3C)
    report, _ = selftest(table, skip={"select"})
    assert [(f.part, f.detail) for f in report.faults] == [
        ("display", "failing (DeviceNotFoundError: I2C device not found on address: 0x3C)"),
        ("button", "not pressed within 0.05 s"),
    ]


def test_a_screen_that_loses_bytes_fails_the_read_back(table):
    chip = table.displays["stake-4"].chip
    chip.data = lambda payload: None  # the glass never gets the pixels
    report, _ = selftest(table)
    assert [(f.name, f.detail) for f in report.faults] == [
        ("display stake-4 (ssd1306 128x64, i2c-26 0x3C)",
         "the screen does not show the test pattern"),
    ]  # fmt: skip


def test_the_command_exits_0_on_a_healthy_emulated_table(capsys):
    assert cli.main(["selftest", "--profile", "minimal", "--emulated"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("self-test of profile minimal (emulated hardware)\n")
    assert "-> press the OK button (GPIO22)" in out.err


def test_the_command_exits_1_and_names_the_unplugged_reader(capsys):
    status = cli.main(["selftest", "--emulated", "--unplug", "reader:stake-1",
                       "--button-timeout", "0.05"])  # fmt: skip
    assert status == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines if line.startswith("FAIL")] == [
        "FAIL  reader stake-1 (spi0 cs GPIO6)"
    ]
    assert lines[-1] == "1 fault found"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--profile", "bigtable"], "bigtable: no such profile"),
        (["--unplug", "reader:main"], "--unplug works only with --emulated"),
        (["--emulated", "--unplug", "pad:main"], "write reader:ROLE, display:ROLE or button:ROLE"),
        (["--emulated", "--profile", "minimal", "--unplug", "reader:stake-0"],
         "the profile has no reader 'stake-0' (main)"),
    ],
)  # fmt: skip
def test_bad_arguments_exit_2_with_a_sentence(argv, message, capsys):
    assert cli.main(["selftest", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""
