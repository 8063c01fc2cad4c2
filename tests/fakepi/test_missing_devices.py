"""A Pi whose SPI or I2C is not enabled: the command stops with one sentence that names the
fix (`sudo raspi-config nonint do_spi 0` / `do_i2c 0`), not a traceback."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.fakepi


def test_spi_disabled_names_the_raspi_config_command(fake_pi):
    pi = fake_pi("pi4", "full-table", spi=False)
    done = pi.run("selftest", "--profile", "full-table", "--button-timeout", "0.1")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "sudo raspi-config nonint do_spi 0" in lines[0], done.stderr


def test_i2c_disabled_names_the_raspi_config_command(fake_pi):
    pi = fake_pi("pi5", "minimal", i2c=False)
    done = pi.run("run", "--profile", "minimal")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("INFO ")]
    assert len(lines) == 1 and "sudo raspi-config nonint do_i2c 0" in lines[0], done.stderr
