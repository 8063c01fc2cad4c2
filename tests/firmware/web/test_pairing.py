"""The pairing file (firmware/web/pairing.py) and `arcana-table pair`: codes expire, a new
offer replaces the open one, a damaged file is named, devices are listed and revoked."""

from __future__ import annotations

import pytest

from firmware.cli import main
from firmware.web.pairing import (
    CODE_S,
    FAILURE_WINDOW_S,
    MAX_FAILURES,
    Pairing,
    PairingRefused,
    Role,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_expires_and_a_new_offer_replaces_the_open_one(tmp_path) -> None:
    clock = Clock()
    pairing = Pairing(tmp_path, clock=clock)
    first = pairing.offer(Role.owner())
    second = pairing.offer(Role.of_seat(3))
    assert pairing.pending() == second
    with pytest.raises(PairingRefused):
        pairing.redeem(first.code)
    clock.now += CODE_S
    assert pairing.pending() is None
    with pytest.raises(PairingRefused) as refused:
        pairing.redeem(second.code)
    assert refused.value.status == 403


def test_the_rate_limit_window_passes(tmp_path) -> None:
    clock = Clock()
    pairing = Pairing(tmp_path, clock=clock, code_s=10 * FAILURE_WINDOW_S)
    offer = pairing.offer(Role.owner())
    for _ in range(MAX_FAILURES):
        with pytest.raises(PairingRefused):
            pairing.redeem("WRONGWRONG")
    with pytest.raises(PairingRefused) as refused:
        pairing.redeem(offer.code)
    assert refused.value.status == 429 and f"{round(FAILURE_WINDOW_S)} s" in refused.value.message
    clock.now += FAILURE_WINDOW_S
    device, token = pairing.redeem(offer.code.lower(), "  Ana  ")  # read off a screen: any case
    assert (device.name, device.role) == ("Ana", Role.owner())
    assert pairing.device_for(token) == device
    assert pairing.device_for(token + "x") is None


def test_a_damaged_pairing_file_is_named(tmp_path) -> None:
    (tmp_path / "web-devices.json").write_text("{not json")
    with pytest.raises(PairingRefused) as refused:
        Pairing(tmp_path).devices()
    assert "web-devices.json is damaged" in refused.value.message


def test_pair_lists_and_revokes_devices(tmp_path, capsys) -> None:
    pairing = Pairing(tmp_path)
    device, token = pairing.redeem(pairing.offer(Role.of_seat(2)).code, "lost phone")
    assert main(["pair", "--state-dir", str(tmp_path), "--list"]) == 0
    assert f"{device.id}  Seat 2     lost phone" in capsys.readouterr().out
    assert main(["pair", "--state-dir", str(tmp_path), "--revoke", device.id]) == 0
    assert "Unpaired lost phone (Seat 2)" in capsys.readouterr().out
    assert pairing.device_for(token) is None
    assert main(["pair", "--state-dir", str(tmp_path), "--revoke", device.id]) == 2
    assert "No paired device has the id" in capsys.readouterr().err


def test_pair_refuses_a_profile_without_the_web_app(tmp_path, capsys) -> None:
    assert main(["pair", "--state-dir", str(tmp_path)]) == 2
    assert "does not serve the web app" in capsys.readouterr().err
    assert Pairing(tmp_path).pending() is None
