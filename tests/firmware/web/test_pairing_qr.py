"""Pairing by the QR code on the status OLED, read back from the emulated SSD1306's RAM with
zbar: the code a phone scans at 128x64 is the one the table accepts, once."""

from __future__ import annotations

from web_table import Phone, WebTable, decode_qr, wait_until

from firmware.web.pairing import Role
from firmware.web.qr import pairing_image
from hardware.display.pages import image_to_pages


def test_the_status_oled_shows_a_scannable_pairing_code_and_a_phone_becomes_the_owner(
    tmp_path, zbarimg
):
    with WebTable(tmp_path) as table:
        before = table.status_pages()
        code = table.offer(Role.owner())
        url = table.scan(zbarimg)
        assert url == f"{table.url}pair/{code}".upper()  # what the phone's camera reads
        phone = Phone(table.url)
        status, page = phone.get(url)  # HTTP://127.0.0.1:PORT/PAIR/CODE, as scanned
        assert status == 200 and b"Pair this phone" in page
        status, answer = phone.post("api/pair", {"code": url.rsplit("/", 1)[1], "name": "Ana"})
        assert status == 200 and answer["device"]["role"]["kind"] == "owner"
        cookie = phone.set_cookie.lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
        assert phone.get("api/me")[1]["device"]["name"] == "Ana"
        # the code is used up: the QR code goes and the status screen comes back
        assert wait_until(lambda: table.status_pages() == before)
        again = Phone(table.url)
        assert again.post("api/pair", {"code": code})[0] == 403


def test_a_seat_code_from_the_owners_page_is_on_the_oled_and_pairs_that_seat(tmp_path, zbarimg):
    with WebTable(tmp_path) as table:
        owner = table.pair_owner()
        status, answer = owner.post("api/offers", {"seat": 2})
        assert status == 200 and answer["offer"]["role"]["label"] == "Seat 2"
        assert "code" not in str(answer)  # the code goes to the OLED only
        url = table.scan(zbarimg)
        seat = table.pair(url.rsplit("/", 1)[1])
        assert seat.get("api/me")[1]["device"]["role"] == {
            "kind": "seat",
            "seat": 2,
            "label": "Seat 2",
        }


def test_the_qr_code_decodes_from_display_pages_at_128x64_and_128x32(zbarimg):
    url = "http://192.168.100.200:8080/pair/ABCDEFGHJK"
    for size in ((128, 64), (128, 32)):
        pages = image_to_pages(pairing_image(url, "Seat 4", size))
        assert decode_qr(zbarimg, pages) == [url.upper()], size
