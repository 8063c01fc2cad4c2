"""The owner's catalog in and out: CSV and TOML round trips, imports checked before anything
is written (malformed, hostile and incomplete files), the checker's sentences split into
problems and what a catalog still lacks, and the progress counts against the box."""

from __future__ import annotations

import codecs
import errno
import os
import tomllib
from pathlib import Path

import pytest

from engine.arcana.catalog import CATALOG_DIR, LARGEST, load_catalog
from firmware.web.catalog_checks import check_entries
from firmware.web.catalog_progress import BOX_CARDS, progress
from firmware.web.catalog_transfer import (
    MAX_UPLOAD,
    TransferRefused,
    from_csv,
    import_catalog,
    read_catalog,
    same_file,
    to_csv,
    to_toml,
)

SAMPLE = CATALOG_DIR / "sample.toml"


def sample() -> dict:
    return tomllib.loads(SAMPLE.read_text(encoding="utf-8"))


def partial(count: int) -> dict:
    data = sample()
    return {**data, "cards": data["cards"][:count]}


def test_the_box_holds_162_cards() -> None:
    # 4 guilds x 12 + 85 market + 1 game end + 6 militia + 22 tasks (the rules' README)
    assert BOX_CARDS == 162
    assert len(load_catalog("sample").cards) == BOX_CARDS


def translated() -> dict:
    """The first 12 cards with names in other languages (a card's and a guild's `names`)."""
    data = partial(12)
    first = next(iter(data["guilds"]))
    data["guilds"][first] = {**data["guilds"][first], "names": {"de": "Gilde", "fa": "صنف"}}
    data["cards"][0] = {**data["cards"][0], "names": {"fa": "کارت یک"}}
    data["cards"][3] = {**data["cards"][3], "names": {"en": "Card", "de": "Karte"}}
    return data


@pytest.mark.parametrize("data", [sample(), partial(30), translated(), {"name": "empty"}])
def test_csv_and_toml_round_trip(data) -> None:
    assert from_csv(to_csv(data)) == data
    assert from_csv(to_csv(data).encode("utf-8")) == data
    assert tomllib.loads(to_toml(data)) == data


def test_names_in_other_languages_are_a_column_each() -> None:
    header, *rows = to_csv(translated()).splitlines()
    assert header.startswith("kind,id,name,name_en,name_de,name_fa,guild,")
    assert "names" not in header.split(",")
    assert any("کارت یک" in row for row in rows)


def test_csv_from_a_spreadsheet_columns_in_any_order_bom_and_blank_rows() -> None:
    text = "id,kind,vp,guild,name\r\nblades_base,base,0,blades,Klingen\u00e4\r\n,,,,\r\n"
    data = from_csv(codecs.BOM_UTF8 + text.encode("utf-8"))
    assert data == {
        "cards": [
            {
                "id": "blades_base",
                "kind": "base",
                "vp": 0,
                "guild": "blades",
                "name": "Klingen\u00e4",
            }
        ]
    }
    assert from_csv(codecs.BOM_UTF16_LE + text.encode("utf-16-le")) == data


def test_to_toml_escapes_what_toml_may_not_hold_raw() -> None:
    data = {"name": 'a "quoted"\\ name\ttab\x7f\x01\nline', "guilds": {"odd guild": {"name": "é"}}}
    assert tomllib.loads(to_toml(data)) == data


def test_a_partial_catalog_lacks_the_totals_but_has_no_problems() -> None:
    problems, lacking = check_entries(partial(20))
    assert problems == []
    assert any("too few market cards" in sentence for sentence in lacking)
    assert any("game_end" in sentence for sentence in lacking)
    assert check_entries(sample()) == ([], [])


def test_problems_of_the_entries_stay_problems_in_a_partial_catalog() -> None:
    data = partial(20)
    data["cards"].append(dict(data["cards"][0]))  # blades_base twice: a second base too
    data["cards"].append(
        {
            "id": "m_x",
            "kind": "relic",
            "vp": 1,
            "main": "military",
            "fief": "temple",
            "arcana": {"military": 1, "politcal": 0},
        }
    )
    problems, lacking = check_entries(data)
    assert 'duplicate id "blades_base" (cards 1 and 21)' in problems
    assert any('unknown arcanum "politcal"' in p for p in problems)
    assert any("missing value for arcana.spiritual" in p for p in problems)
    assert not any("duplicate" in p or "politcal" in p for p in lacking)


def test_progress_counts_entered_and_missing_per_guild_and_kind() -> None:
    data = partial(20)  # blades' 12 cards, then 8 of ferrymen's
    data["cards"].append(dict(data["cards"][1]))
    seen = progress(
        data,
        {
            "04aabbccddeeff": "blades_agent_1",
            "04aabbccddee00": "gone",
            "0411223344": "blades_agent_1",
        },
    )
    assert seen["entered"] == 20 and seen["missing"] == BOX_CARDS - 20
    blades, ferrymen, thieves, usurers = seen["guilds"]
    assert blades["id"] == "blades" and blades["missing"] == 0
    assert ferrymen["kinds"]["agent"] == {"entered": 7, "expected": 9, "missing": 2, "extra": 0}
    assert ferrymen["kinds"]["relic"]["missing"] == 1
    assert thieves["missing"] == usurers["missing"] == 12
    assert seen["market"]["missing"] == 85 and seen["others"]["task"]["missing"] == 22
    assert seen["duplicates"] == [{"id": "blades_agent_1", "cards": [2, 21]}]
    tags = seen["tags"]
    assert tags["not_in_catalog"] == [{"uid": "04aabbccddee00", "card": "gone"}]
    assert tags["bound_twice"] == [
        {"card": "blades_agent_1", "tags": ["0411223344", "04aabbccddeeff"]}
    ]
    assert "blades_base" in tags["without_tag"] and "blades_agent_1" not in tags["without_tag"]
    assert not seen["check"]["playable"]
    assert any("duplicate" in p for p in seen["check"]["problems"])


def test_progress_of_the_whole_sample_is_complete() -> None:
    seen = progress(sample(), {})
    assert seen["missing"] == 0 and seen["check"]["playable"]
    assert seen["market"]["kinds"]["relic"] == 24  # the sample's split (the real one is not public)


# -- imports ------------------------------------------------------------------------------------
@pytest.fixture
def owner_file(tmp_path) -> Path:
    path = tmp_path / "catalog.toml"
    path.write_text("# my comment\n" + to_toml(partial(12)), encoding="utf-8")
    return path


def refused(owner_file: Path, fmt: str, raw: bytes, strict: bool = False) -> TransferRefused:
    before = owner_file.read_bytes(), owner_file.stat().st_mtime_ns
    with pytest.raises(TransferRefused) as caught:
        import_catalog(owner_file, fmt, raw, strict)
    assert (owner_file.read_bytes(), owner_file.stat().st_mtime_ns) == before
    assert [p.name for p in owner_file.parent.iterdir()] == [owner_file.name]  # no temp left
    return caught.value


def test_a_toml_import_is_written_as_sent_comments_kept(owner_file) -> None:
    raw = ("# the owner's own words\n" + to_toml(partial(40))).encode()
    done = import_catalog(owner_file, "toml", raw, strict=False)
    assert owner_file.read_bytes() == raw
    assert done["cards"] == 40 and done["lacking"]


def test_a_csv_import_is_written_as_toml(owner_file) -> None:
    done = import_catalog(owner_file, "csv", to_csv(sample()).encode(), strict=True)
    assert done["lacking"] == [] and read_catalog(owner_file) == sample()
    assert load_catalog(str(owner_file)).cards.keys() == load_catalog("sample").cards.keys()


def test_a_malformed_import_changes_nothing_and_says_why(owner_file) -> None:
    bad = partial(12)
    bad["cards"][1]["arcana"]["military"] = -2
    err = refused(owner_file, "csv", to_csv(bad).encode())
    assert err.problems == [
        f'card "blades_agent_1": arcana.military must be a whole number from 0 to {LARGEST}, not -2'
    ]
    assert "not valid TOML" in refused(owner_file, "toml", b"name = \n").message
    assert "unknown column 'colour'" in refused(owner_file, "csv", b"kind,id,colour\n").message
    assert "no kind column" in refused(owner_file, "csv", b"id,name\nx,y\n").message


def test_an_incomplete_catalog_is_refused_for_the_file_the_table_plays(owner_file) -> None:
    err = refused(owner_file, "toml", to_toml(partial(30)).encode(), strict=True)
    assert "must pass catalog check" in err.problems[0]
    assert any("too few market cards" in p for p in err.problems)


def test_hostile_uploads_are_refused(owner_file) -> None:
    huge = b"# " + b"x" * MAX_UPLOAD + b"\n"
    assert refused(owner_file, "toml", huge).status == 413
    latin1 = 'name = "Gilde der Kl\u00e4ngen"\n'.encode("latin-1")
    assert "not UTF-8 text (byte 0xe4 on line 1)" in refused(owner_file, "toml", latin1).message
    broken_utf16 = codecs.BOM_UTF16_LE + "kind,id\n".encode("utf-16-le") + b"\x00\xdc"
    assert "not text in UTF-16" in refused(owner_file, "csv", broken_utf16).message
    twice = b'name = "a"\nname = "b"\n'
    assert "not valid TOML" in refused(owner_file, "toml", twice).message
    twice_card = to_toml(partial(12)).replace("vp = 0\n", "vp = 0\nvp = 1\n", 1).encode()
    assert "not valid TOML" in refused(owner_file, "toml", twice_card).message
    assert "column 'vp' twice" in refused(owner_file, "csv", b"kind,id,vp,vp\n").message
    guilds = b"kind,id,tie_arcanum\nguild,blades,military\nguild,blades,political\n"
    assert 'guild "blades" is on line 2 too' in refused(owner_file, "csv", guilds).message
    nul = b"kind,id\nbase,a\x00b\n"
    assert "NUL" in refused(owner_file, "csv", nul).message
    long_field = b"kind,id\nbase," + b"a" * 500 + b"\n"
    assert "characters (at most" in refused(owner_file, "csv", long_field).message
    deep = ("cards = " + "[" * 40 + "]" * 40 + "\n").encode()
    assert "nested" in refused(owner_file, "toml", deep).message
    assert "unknown format" in refused(owner_file, "json", b"{}").message


def test_same_file_sees_through_relative_paths(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert same_file(Path("state/../state/catalog.toml"), tmp_path / "state" / "catalog.toml")
    assert not same_file(Path("other.toml"), tmp_path / "state" / "catalog.toml")


def test_a_full_disk_is_a_sentence_and_the_old_file_stays(owner_file, monkeypatch) -> None:
    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    err = refused(owner_file, "toml", to_toml(partial(12)).encode())
    assert err.status == 500
    assert err.problems == [
        f"cannot save {owner_file.name} (No space left on device); it was not changed"
    ]


def test_a_new_file_with_guilds_and_no_card_lacks_cards_but_has_no_problems() -> None:
    fresh = {"name": "my-copy", "guilds": sample()["guilds"]}
    problems, lacking = check_entries(fresh)
    assert problems == []
    assert "missing value for cards (an array of card tables)" in lacking
    assert not progress({}, {})["check"]["playable"]
    assert progress({}, {})["check"]["lacking"] == ["no catalog yet"]


def test_thousands_of_guilds_are_refused_before_the_checker_runs(owner_file) -> None:
    raw = ('name = "x"\n' + "".join(f"[guilds.g{i}]\n" for i in range(3000))).encode()
    assert len(raw) <= MAX_UPLOAD
    err = refused(owner_file, "toml", raw)
    assert err.problems == ["guilds: 3000 guilds, more than 16 (the box has 4)"]
