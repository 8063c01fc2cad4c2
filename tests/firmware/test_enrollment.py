"""Enrollment: binding tags to cards, re-binding only when confirmed, CSV, and tap mode on an
emulated reader (the real adafruit driver writes the card id onto the tag)."""

from __future__ import annotations

import io

import pytest

from firmware import cli
from firmware.commands.enroll import TapSession, catalog_cards
from firmware.enrollment import EnrollError, Enrollment, NeedsConfirmation, normalise_uid
from firmware.journal import Journal
from hardware.nfc.buses import EmulatedI2C
from hardware.nfc.emulator import EmulatedPN532
from hardware.nfc.reader import Reader
from hardware.nfc.tags import Ntag

UID_A, UID_B = "04a1b2c3d4e5f6", "04a1b2c3d4e5f7"


@pytest.fixture
def enrollment(tmp_path):
    cards, catalog = catalog_cards("arcana", "sample")
    with Journal.open(tmp_path) as journal:
        yield Enrollment(journal, catalog, cards)


def test_a_tag_is_bound_to_a_card(enrollment):
    bound = enrollment.bind("04:A1:B2:C3:D4:E5:F6", "blades_agent_3")
    assert (bound.uid, bound.card, bound.warnings) == (UID_A, "blades_agent_3", ())
    assert enrollment.bindings() == {UID_A: "blades_agent_3"}


def test_rebinding_a_known_tag_asks_first_and_changes_nothing_until_confirmed(enrollment):
    enrollment.bind(UID_A, "blades_agent_3")
    with pytest.raises(NeedsConfirmation, match="bound to blades_agent_3; re-bind"):
        enrollment.bind(UID_A, "blades_agent_4")
    assert enrollment.bindings() == {UID_A: "blades_agent_3"}
    bound = enrollment.bind(UID_A, "blades_agent_4", rebind=True)
    assert bound.previous == "blades_agent_3"
    assert enrollment.bindings() == {UID_A: "blades_agent_4"}


def test_a_card_bound_twice_is_reported(enrollment):
    enrollment.bind(UID_A, "blades_relic")
    bound = enrollment.bind(UID_B, "blades_relic")
    assert bound.warnings == (f"blades_relic is also bound to tag {UID_A}",)


def test_an_unknown_card_is_refused_with_suggestions(enrollment):
    with pytest.raises(EnrollError, match="did you mean blades_agent_3"):
        enrollment.bind(UID_A, "blades_agent3")
    assert enrollment.bindings() == {}


@pytest.mark.parametrize("uid", ["", "xyz", "04a1b", "04a1b2c3d4"])
def test_a_malformed_uid_is_refused(uid):
    with pytest.raises(EnrollError, match="UID"):
        normalise_uid(uid)


def test_csv_round_trip(enrollment, tmp_path):
    enrollment.bind(UID_A, "blades_agent_3")
    enrollment.bind(UID_B, "m_relic_01")
    text = enrollment.export_csv()
    assert text.splitlines()[0] == "uid,card"
    with Journal.open(tmp_path / "other") as journal:
        fresh = Enrollment(journal, enrollment.catalog, enrollment.cards)
        assert fresh.import_csv(text) == []
        assert fresh.bindings() == enrollment.bindings()


def test_a_bad_csv_imports_nothing_and_names_each_line(enrollment):
    text = (
        f"uid,card\n{UID_A},blades_agent_3\nnot-a-uid,blades_agent_4\n{UID_B},no_such_card\n1,2,3\n"
    )
    with pytest.raises(EnrollError) as err:
        enrollment.import_csv(text)
    lines = str(err.value).splitlines()
    assert [line.split(":")[0] for line in lines] == ["line 3", "line 4", "line 5"]
    assert enrollment.bindings() == {}


def test_import_does_not_rebind_without_yes(enrollment):
    enrollment.bind(UID_A, "blades_agent_3")
    with pytest.raises(EnrollError, match=r"line 1: tag .* is bound to blades_agent_3"):
        enrollment.import_csv(f"{UID_A},blades_agent_4\n")
    enrollment.import_csv(f"{UID_A},blades_agent_4\n", rebind=True)
    assert enrollment.bindings() == {UID_A: "blades_agent_4"}


class FakeTime:
    """Time for the tap session: a tag appears on the pad after a few polls."""

    def __init__(self, chip, tags):
        self.now = 0.0
        self.chip = chip
        self.tags = list(tags)
        self.polls = 0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.1)
        self.polls += 1
        if self.chip.tags:
            if self.polls % 5 == 0:  # the player lifts the card after a moment
                self.chip.remove(self.chip.tags[0].uid)
        elif self.tags and self.polls % 3 == 0:
            self.chip.place(self.tags.pop(0))


def session(tags, timeout=30.0):
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532(name="stake-0"))
    reader = Reader.over_i2c(i2c, name="stake-0")
    fake = FakeTime(chip, tags)
    return TapSession(reader, 0.3, timeout, clock=fake.clock, sleep=fake.sleep), chip


def test_tap_mode_binds_each_tag_and_writes_the_card_id(enrollment):
    tags = [Ntag(UID_A), Ntag(UID_B)]
    tap, _ = session(tags)
    out = io.StringIO()
    status = tap.enroll(
        enrollment, iter(["blades_agent_1", "m_relic_01"]), True, False, io.StringIO(), out
    )
    assert status == 0, out.getvalue()
    assert enrollment.bindings() == {UID_A: "blades_agent_1", UID_B: "m_relic_01"}
    # The ids are on the tags now: a fresh reader reads them back through the driver.
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    chip.place(tags[1])
    with Reader.over_i2c(i2c, name="check") as reader:
        (uid,) = reader.poll().uids
        assert reader.read_card_id(uid) == "m_relic_01"


def test_tap_mode_asks_before_rebinding(enrollment):
    enrollment.bind(UID_A, "blades_agent_3")
    tap, _ = session([Ntag(UID_A)])
    out = io.StringIO()
    status = tap.enroll(enrollment, iter(["blades_agent_4"]), False, False, io.StringIO("n\n"), out)
    assert status == 0
    assert "re-bind it to blades_agent_4? [y/N]" in out.getvalue()
    assert enrollment.bindings() == {UID_A: "blades_agent_3"}


def test_tap_mode_gives_up_after_the_timeout(enrollment):
    tap, _ = session([], timeout=2.0)
    out = io.StringIO()
    assert tap.enroll(enrollment, iter(["blades_agent_1"]), False, False, io.StringIO(), out) == 1
    assert "no tag within 2 s" in out.getvalue()
    assert enrollment.bindings() == {}


def test_cli_import_list_and_export(tmp_path, capsys):
    source = tmp_path / "in.csv"
    source.write_text(f"uid,card\n{UID_A},seer_orb\n")
    base = ["enroll", "--game", "res-arcana", "--state-dir", str(tmp_path / "state")]
    assert cli.main([*base, "--import", str(source)]) == 0
    assert cli.main([*base, "--list"]) == 0
    assert f"{UID_A}  seer_orb  (Seer's Orb)" in capsys.readouterr().out
    target = tmp_path / "out.csv"
    assert cli.main([*base, "--export", str(target)]) == 0
    assert target.read_text() == source.read_text()


def test_cli_reports_a_bad_import_and_exits_2(tmp_path, capsys):
    source = tmp_path / "in.csv"
    source.write_text(f"{UID_A},crystal_ball\n")
    base = ["enroll", "--game", "res-arcana", "--state-dir", str(tmp_path / "state")]
    assert cli.main([*base, "--import", str(source)]) == 2
    assert "line 1: crystal_ball is not a card of res-arcana" in capsys.readouterr().err
