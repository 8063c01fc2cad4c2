"""`arcana-table run` with `[web] enabled = true` on a fake Pi 5 (the minimal table: its one
OLED is the status screen): `arcana-table pair` opens a code, the fake OLED shows its QR
code (decoded with zbar from the frames the testbed saw on I2C), and a phone that opens
that URL pairs as the owner."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pytest
from PIL import Image
from web_table import decode_qr_image, zbarimg

pytestmark = pytest.mark.fakepi

__all__ = ["zbarimg"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def qr_codes(zbar: str, frame: bytes, size: tuple[int, int] = (128, 64)) -> list[str]:
    return decode_qr_image(zbar, Image.frombytes("1", size, frame))


def answers_unpaired(url: str) -> bool:
    try:
        urllib.request.urlopen(url + "api/state", timeout=10)
    except urllib.error.HTTPError as err:
        return err.code == 401
    except OSError:
        return False  # not listening yet
    return False


def test_a_phone_pairs_by_the_qr_code_on_the_fake_oled(
    fake_pi, profile_file, tmp_path, wait_for, zbarimg
):
    port = free_port()
    profile = tmp_path / "web-minimal.toml"
    profile.write_text(
        f'[web]\nenabled = true\nport = {port}\naddress = "127.0.0.1"\n'
        + profile_file("minimal").read_text(encoding="utf-8")
    )
    url = f"http://127.0.0.1:{port}/"
    pi = fake_pi("pi5", "minimal")
    table = pi.start("run", "--profile", str(profile))
    try:
        wait_for(lambda: answers_unpaired(url), "the web app answering", table)
        paired = pi.run("pair", "--profile", str(profile))
        assert paired.returncode == 0, paired.stderr
        pair_url = paired.stdout.splitlines()[-1]
        assert pair_url.startswith(f"{url}pair/")  # [web] address and port
        shown: list[str] = []

        def qr_on_the_oled() -> bool:
            shown[:] = qr_codes(zbarimg, pi.screens()["main"])
            return bool(shown)

        wait_for(qr_on_the_oled, "the pairing QR code on the fake OLED", table)
        assert [code.lower() for code in shown] == [pair_url.lower()]
        with urllib.request.urlopen(shown[0], timeout=30) as page:
            assert page.status == 200
            assert page.headers.get_content_type() == "text/html"
        request = urllib.request.Request(
            url + "api/pair",
            data=json.dumps({"code": shown[0].rsplit("/", 1)[1], "name": "owner"}).encode(),
            headers={"Content-Type": "application/json", "Origin": url.rstrip("/")},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.load(answer)["device"]["role"]["kind"] == "owner"
    finally:
        done = pi.stop(table)
    assert done.returncode == 0, done.stderr + pi.testbed_log()
