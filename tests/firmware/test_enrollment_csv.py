"""Importing a bindings CSV: one transaction, the encodings spreadsheets write, and for any
other bytes exit 2 with `FILE line N: ...` and nothing changed.

The fuzz tests run 200 and 100 examples (a few seconds); ARCANA_FUZZ_SCALE=N (CONTRIBUTING.md)
runs N times as many.
"""

from __future__ import annotations

import codecs
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firmware import cli
from firmware.commands.enroll import catalog_cards
from firmware.enrollment import EnrollError, Enrollment
from firmware.journal import Journal, JournalError

UID_A, UID_B = "04a1b2c3d4e5f6", "04a1b2c3d4e5f7"
FUZZ_EXAMPLES = 200 * max(1, int(os.environ.get("ARCANA_FUZZ_SCALE", "1")))
PROBLEM = re.compile(r"^arcana-table enroll: \S+ line \d+: \S.*$")


@pytest.fixture
def enrollment(tmp_path):
    cards, catalog = catalog_cards("res-arcana", "sample")
    with Journal.open(tmp_path / "state") as journal:
        yield Enrollment(journal, catalog, cards)


ROWS = f"uid,card\n{UID_A},seer_orb\n{UID_B},dragon_heart\n"


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF8 + ROWS.encode(),  # Excel "CSV UTF-8"
        codecs.BOM_UTF16_LE + ROWS.replace("\n", "\r\n").encode("utf-16-le"),  # "Unicode text"
        codecs.BOM_UTF16_BE + ROWS.encode("utf-16-be"),
        ROWS.replace("\n", "\r\n").encode("cp1252"),  # plain "CSV" on Windows
    ],
    ids=["utf-8-bom", "utf-16-le", "utf-16-be", "cp1252"],
)
def test_the_encodings_spreadsheets_write_are_read(enrollment, data):
    assert enrollment.import_csv(data) == []
    assert enrollment.bindings() == {UID_A: "seer_orb", UID_B: "dragon_heart"}


def test_cp1252_text_in_a_card_field_is_read_and_named(enrollment):
    with pytest.raises(EnrollError, match=r"^line 2: caf\u00e9 is not a card of res-arcana"):
        enrollment.import_csv(f"uid,card\n{UID_A},caf\u00e9\n".encode("cp1252"))


def test_the_same_uid_twice_names_both_lines(enrollment):
    text = f"uid,card\n{UID_A},seer_orb\n{UID_B},dragon_heart\n04:A1:B2:C3:D4:E5:F6,seer_orb\n"
    with pytest.raises(EnrollError) as err:
        enrollment.import_csv(text, source="tags.csv")
    assert str(err.value) == f"tags.csv line 4: tag {UID_A} is also on line 2"
    assert enrollment.bindings() == {}


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (f"{UID_A},{'x' * 5000}\n".encode(), "line 1: a field of 5000 characters (at most 200)"),
        (f"uid,card\n{UID_A},{'y' * 200_000}\n".encode(), "line 2: not CSV (field larger"),
        (f"uid,card\n{UID_A},seer\x00orb\n".encode(), "line 2: a NUL byte is not text"),
        (f"uid,card\n{UID_A},seer_orb\n\x81\n".encode("latin-1"), "line 3: byte 0x81 is not text"),
        (codecs.BOM_UTF8 + b"uid,card\n\xff\n", "line 2: byte 0xff is not text in UTF-8"),
        (codecs.BOM_UTF16_LE + "uid\n".encode("utf-16-le") + b"\x00\xd8", "line 2: byte 0x00"),
        (f'uid,card\n{UID_A},"seer\norb"\n{UID_B},x\n'.encode(), "line 2: 'seer\\norb' is not"),
    ],
    ids=["overlong", "over-csv-limit", "nul", "cp1252-undefined", "bad-utf8-bom", "bad-utf16",
         "newline-in-field"],
)  # fmt: skip
def test_undecodable_and_overlong_input_names_the_line_and_changes_nothing(
    enrollment, data, said, tmp_path, capsys
):
    enrollment.bind(UID_B, "seer_orb")
    with pytest.raises(EnrollError, match=re.escape(said)):
        enrollment.import_csv(data)
    assert enrollment.bindings() == {UID_B: "seer_orb"}
    source = tmp_path / "tags.csv"
    source.write_bytes(data)
    state = str(tmp_path / "cli-state")  # the fixture's table still holds tmp_path / "state"
    assert cli.main(["enroll", "--game", "res-arcana", "--import", str(source), "--state-dir",
                     state]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.startswith(f"arcana-table enroll: {source} {said}")
    assert all(PROBLEM.match(line) for line in err.splitlines())


def test_a_journal_refusing_the_import_keeps_none_of_it(enrollment):
    enrollment.bind(UID_B, "seer_orb")
    rows = "".join(f"04a1b2c3d4{n:04x},dragon_heart\n" for n in range(3000))
    db = enrollment.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0] + 2}")
    with pytest.raises(JournalError, match="full"):
        enrollment.import_csv(rows)
    db.execute("PRAGMA max_page_count = 1000000")
    assert enrollment.bindings() == {UID_B: "seer_orb"}


def test_an_import_that_fails_midway_leaves_no_binding(tmp_path):
    """A 20,000-row import stopped at row 7,613 (a trigger makes SQLite fail there, as a full
    disk or a kill would) keeps none of them: it is one transaction."""
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        journal._db.execute(
            "CREATE TRIGGER stop_midway AFTER INSERT ON bindings "
            "WHEN (SELECT count(*) FROM bindings) = 7613 "
            "BEGIN SELECT RAISE(ABORT, 'stopped midway'); END"
        )
    source = tmp_path / "tags.csv"
    source.write_text("".join(f"04a1b2c3{n:06x},seer_orb\n" for n in range(20_000)))
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "enroll", "--game", "res-arcana", "--import",
         str(source), "--state-dir", str(state)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("arcana-table enroll: ") and "stopped midway" in done.stderr
    with Journal.open(state) as journal:
        assert journal.bindings() == {}


# -- fuzzing -------------------------------------------------------------------------------
FIELDS = st.sampled_from(
    [UID_A, UID_B, "04:A1:B2:C3:D4:E5:F6", "04a1b2c3", "zz", "", "seer_orb", "dragon_heart",
     "x" * 250, "caf\u00e9", '"', "\r", "\x00", "uid", "card"]
) | st.text(max_size=12)  # fmt: skip
ROW_TEXT = st.lists(FIELDS, min_size=0, max_size=4).map(lambda row: ",".join(row))
CSV_TEXT = st.lists(ROW_TEXT, max_size=8).map(lambda rows: "\n".join(rows) + "\n")
ENCODED = st.tuples(CSV_TEXT, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"])).map(
    lambda pair: pair[0].encode(pair[1], errors="replace")
)


def mutated(data: bytes) -> st.SearchStrategy[bytes]:
    """`data` with one byte replaced by one to three random bytes."""
    spot = st.integers(0, max(len(data) - 1, 0))
    return st.tuples(spot, st.binary(min_size=1, max_size=3)).map(
        lambda cut: data[: cut[0]] + cut[1] + data[cut[0] + 1 :]
    )


CSV_BYTES = st.one_of(ENCODED, st.binary(max_size=200), ENCODED.flatmap(mutated))


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=CSV_BYTES)
@example(data=codecs.BOM_UTF16_LE + b"\x00")
@example(data=b'"unclosed\n')
def test_any_bytes_import_completely_or_exit_2_naming_a_line_and_change_nothing(
    enrollment, data
):
    enrollment.journal.bind_all({UID_B: "seer_orb"}, "res-arcana")
    before, version = enrollment.bindings(), enrollment.journal.version()
    try:
        enrollment.import_csv(data, source="tags.csv")
    except EnrollError as err:
        lines = str(err).splitlines()
        assert lines and all(re.match(r"^tags\.csv line \d+: \S", line) for line in lines)
        assert all(line.isprintable() for line in lines)
        assert enrollment.bindings() == before and enrollment.journal.version() == version
    else:
        assert enrollment.journal.version() in (version, version + 1)
        assert set(before) <= set(enrollment.bindings())
        assert all(card in enrollment.cards for card in enrollment.bindings().values())


@settings(
    max_examples=max(FUZZ_EXAMPLES // 2, 1),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=CSV_BYTES)
def test_the_command_exits_0_or_2_with_file_line_sentences_and_nothing_changed(
    tmp_path, capsys, data
):
    state, source = tmp_path / "state", tmp_path / "tags.csv"
    with Journal.open(state) as journal:
        journal.bind_all({UID_B: "seer_orb"}, "res-arcana")
        before = journal.bindings()
    source.write_bytes(data)
    code = cli.main(
        ["enroll", "--game", "res-arcana", "--import", str(source), "--state-dir", str(state)]
    )
    out, err = capsys.readouterr()
    with Journal.open(state) as journal:
        after = journal.bindings()
    if code == 2:
        lines = err.splitlines()
        assert lines and all(PROBLEM.match(line) for line in lines), err
        assert all(line.startswith(f"arcana-table enroll: {source} line ") for line in lines)
        assert after == before and out == ""
    else:
        assert code == 0 and out.endswith(f"imported; {len(after)} bindings now\n")
        assert set(before) <= set(after)
