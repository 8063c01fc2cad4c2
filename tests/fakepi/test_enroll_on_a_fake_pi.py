"""`arcana-table enroll --write` (tap mode, real mode) on a fake Pi 5: the real driver writes
the card id onto a blank tag lying on a fake reader, and the table knows the binding."""

from __future__ import annotations

import pytest

from hardware.nfc.ndef import card_id_from_area

pytestmark = pytest.mark.fakepi

UID = "04c0ffee123456"
CARD = "bag_of_gold"


def test_enroll_writes_the_card_id_onto_the_tag(fake_pi):
    pi = fake_pi("pi5", "full-table")
    args = ["enroll", "--game", "res-arcana", "--profile", "full-table", "--pad", "stake-2"]
    process = pi.start(*args, "--write", "--timeout", "20", CARD)
    said = []
    try:
        for line in process.stdout:
            said.append(line)
            if line.startswith(f"tap the tag for {CARD}"):
                pi.place("stake-2", UID)  # a blank tag
            elif "lift the tag" in line:
                assert card_id_from_area(pi.tag_memory("stake-2", UID)[16:]) == CARD
                pi.remove("stake-2", UID)
    finally:
        done = pi.stop(process) if process.poll() is None else None
    assert process.wait() == 0, "".join(said) + (done.stderr if done else process.stderr.read())
    assert any(line.startswith(f"{UID} -> {CARD}") for line in said), said
    listed = pi.run("enroll", "--game", "res-arcana", "--list")
    assert listed.returncode == 0 and f"{UID}  {CARD}" in listed.stdout, listed.stdout
