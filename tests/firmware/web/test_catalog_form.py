"""The catalog builder over HTTP on the emulated table with its loop running: a tag tapped
on a pad opens its form on the owner's phone, the checker's sentences come back by field,
saving writes the owner's file and binds the tag (and writes its card id when asked); bad
input changes nothing."""

from __future__ import annotations

import contextlib
import io
import random
import shutil
from pathlib import Path

import pytest
from web_table import WebTable, wait_until

from engine.arcana.setup import random_setup
from firmware import cli
from firmware.journal import Journal
from firmware.language import load
from firmware.web.catalog_save import read_catalog
from firmware.web.pairing import Role
from hardware.nfc.tags import Ntag

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "engine" / "arcana" / "catalogs" / "sample.toml"
ZERO = {"military": 0, "political": 0, "spiritual": 0, "financial": 0}
TAG_A, TAG_B = "04a1b2c3d4e5f6", "04112233445566"


@pytest.fixture
def table(tmp_path):
    with WebTable(tmp_path) as served:
        yield served


def building(table):
    owner = table.pair_owner()
    status, answer = owner.post("api/catalog/building", {"on": True})
    assert status == 200 and answer == {"building": True}, answer
    return owner


def tap(table, owner, tag: str | Ntag, pad: str, lift: bool = True) -> dict:
    """Put a tag on a pad until the phone sees its tap (then lift it). Each tap of a test on
    a pad of its own: a tag lifted counts as gone only after the scanner's absence time."""
    seen = owner.get("api/catalog/tap")[1]["tap"]
    before = seen["seq"] if seen else 0
    chip = table.table.pads[pad]
    placed = chip.place(tag if isinstance(tag, Ntag) else Ntag(tag))
    answer: dict = {}

    def arrived() -> bool:
        answer.update(owner.get("api/catalog/tap")[1])
        return bool(answer["tap"]) and answer["tap"]["seq"] > before

    assert wait_until(arrived)
    if lift:
        chip.remove(placed.uid)
    return answer


def bindings(table) -> dict[str, str]:
    with Journal.open(table.state_dir, read_only=True) as journal:
        return journal.bindings()


def test_only_the_owner_builds_and_only_on_the_game_choice(tmp_path) -> None:
    with Journal.open(tmp_path) as journal:
        journal.start("arcana", random_setup(random.Random(1), 2))
    with WebTable(tmp_path) as table:
        owner = table.pair_owner()
        seat = table.pair(table.offer(Role.of_seat(1)))
        assert seat.post("api/catalog/building", {"on": True})[0] == 403
        assert seat.get("api/catalog/tap")[0] == 403
        status, answer = owner.post("api/catalog/building", {"on": True})
        assert status == 409 and "A game is open" in answer["error"]
        assert owner.get("api/catalog/tap")[1]["building"] is False
        assert owner.post("api/catalog/building", {"on": "yes"})[0] == 400


def test_a_new_tag_opens_a_form_and_saving_writes_the_file_and_binds_the_tag(table) -> None:
    owner = building(table)
    first = tap(table, owner, TAG_A, "stake-2")
    assert first["tap"]["uid"] == TAG_A and first["tap"]["pad"] == "stake-2"
    assert first["form"] == {"entry": {}, "replaces": None, "bound": None, "known": False}
    assert first["guilds"] == ["blades", "ferrymen", "thieves", "usurers"]
    entry = {
        "id": "blades_agent_1",
        "kind": "agent",
        "guild": "blades",
        "name": "Blades agent 1",
        "vp": 0,
        "arcana": {**ZERO, "military": 3, "financial": 1},
    }
    status, saved = owner.post(
        "api/catalog/save", {"entry": entry, "replaces": None, "uid": TAG_A, "pad": "stake-2"}
    )
    assert status == 200, saved
    assert saved == {
        "saved": "blades_agent_1",
        "number": 1,
        "bound": TAG_A,
        "written": False,
        "warnings": [],
    }
    assert read_catalog(table.state_dir / "catalog.toml")["cards"] == [entry]
    assert bindings(table) == {TAG_A: "blades_agent_1"}
    # a new tag: the card before it, the next number, no values
    second = tap(table, owner, TAG_B, "stake-3")
    assert second["form"]["entry"] == {
        "id": "blades_agent_2",
        "kind": "agent",
        "guild": "blades",
        "name": "Blades agent 2",
        "vp": 0,
    }
    # the bound tag again: its own entry, to change
    again = tap(table, owner, TAG_A, "stake-4")
    assert again["form"] == {
        "entry": entry,
        "replaces": "blades_agent_1",
        "bound": "blades_agent_1",
        "known": True,
    }


def test_the_check_answers_the_sentences_of_catalog_check_by_field(table, capsys) -> None:
    owner = building(table)
    draft = {
        "id": "m_agent_01",
        "kind": "agent",
        "main": "politcal",
        "vp": 3,
        "arcana": {**ZERO, "military": "x"},
    }
    status, answer = owner.post("api/catalog/check", {"entry": draft, "replaces": None})
    assert status == 200
    problems = answer["problems"]
    assert sorted(problems) == ["arcana.military", "fief", "main"]
    # the same sentences `arcana-table catalog check` prints for that card in a file
    path = table.state_dir / "check.toml"
    shutil.copy(SAMPLE, path)
    with path.open("a") as out:
        out.write('\n[[cards]]\nid = "m_agent_99"\nkind = "agent"\nmain = "politcal"\nvp = 3\n')
        out.write('arcana = { military = "x", political = 0, spiritual = 0, financial = 0 }\n')
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert cli.main(["catalog", "check", str(path)]) == 2
    printed = err.getvalue()
    for sentences in problems.values():
        for sentence in sentences:
            assert f"{path}: {sentence.replace('m_agent_01', 'm_agent_99')}" in printed


def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(table) -> None:
    owner = building(table)
    tap(table, owner, TAG_A, "stake-0")
    good = {"id": "thieves_base", "kind": "base", "guild": "thieves", "vp": 0}
    assert owner.post("api/catalog/save", {"entry": good, "uid": TAG_A})[0] == 200
    path = table.state_dir / "catalog.toml"
    before = path.read_bytes()
    cases = [
        ({"entry": {**good, "id": "usurers_base", "guild": "usurer"}}, 400, "unknown guild"),
        ({"entry": "thieves_base"}, 400, "a card is an object"),
        ({"entry": {**good, "id": "usurers_base"}, "uid": "zz"}, 400, "is not a tag UID"),
        ({"entry": {**good, "id": "usurers_base"}, "write": True}, 400, "tap it first"),
        ({"entry": good}, 400, "duplicate id"),  # a new card named as one in the file
        (
            {"entry": {**good, "id": "usurers_base", "guild": "usurers"}, "uid": TAG_A},
            409,
            "stands for thieves_base",
        ),
    ]
    for body, status, sentence in cases:
        got, answer = owner.post("api/catalog/save", body)
        assert (got, sentence in answer["error"]) == (status, True), (body, answer)
    assert path.read_bytes() == before
    assert bindings(table) == {TAG_A: "thieves_base"}
    status, answer = owner.post(
        "api/catalog/save",
        {"entry": {**good, "id": "usurers_base", "guild": "usurers"}, "uid": TAG_A, "rebind": True},
    )
    assert status == 200 and bindings(table) == {TAG_A: "usurers_base"}


def test_asked_to_the_card_id_is_written_on_the_tag(table) -> None:
    owner = building(table)
    tag = Ntag(TAG_A)
    tap(table, owner, tag, "stake-1", lift=False)  # on the pad while it is written
    entry = {"id": "game_end", "kind": "game_end", "vp": 0}
    status, saved = owner.post(
        "api/catalog/save", {"entry": entry, "uid": TAG_A, "pad": "stake-1", "write": True}
    )
    assert status == 200 and saved["written"] is True, saved
    table.table.pads["stake-1"].remove(TAG_A)
    again = tap(table, owner, tag, "stake-0")  # read again: it carries its card id now
    assert again["tap"]["written_id"] == "game_end"
    assert again["form"]["known"] is True and again["form"]["replaces"] == "game_end"
    # lifted before it was written: the card is saved and bound, the sentence says the rest
    tap(table, owner, TAG_B, "stake-3")
    status, saved = owner.post(
        "api/catalog/save",
        {
            "entry": {"id": "militia_1", "kind": "militia", "vp": 0, "arcana": ZERO},
            "uid": TAG_B,
            "pad": "stake-3",
            "write": True,
        },
    )
    assert status == 200 and saved["written"] is False
    lifted = load("en").text("web_refusal.card_id_tag_gone", pad="stake-3")
    assert saved["warnings"][0] == lifted  # what to do, not the reader's own words
    assert bindings(table)[TAG_B] == "militia_1"


def test_done_building_plays_the_owners_catalog_once_it_checks(table) -> None:
    owner = building(table)
    path = table.state_dir / "catalog.toml"
    path.write_text('name = "my-copy"\n[guilds.blades]\n')
    status, answer = owner.post("api/catalog/building", {"on": False})
    assert status == 200 and answer["check"]["ok"] is False
    assert answer["playing"] == "sample" and answer["check"]["problems"]
    owner.post("api/catalog/building", {"on": True})
    path.write_text(SAMPLE.read_text().replace('name = "sample"', 'name = "my-copy"'))
    status, answer = owner.post("api/catalog/building", {"on": False})
    assert answer == {"building": False, "check": {"ok": True, "cards": 162}, "playing": "my-copy"}
    assert table.loop.companion.controller.__class__.__name__ == "GameChooser"


def test_run_plays_the_owners_catalog_from_the_state_directory_once_it_checks(tmp_path, caplog):
    import argparse

    from firmware.commands.run_table import _owners_catalog

    args = argparse.Namespace(state_dir=tmp_path)
    assert _owners_catalog(args) == "sample"  # nothing built yet
    path = tmp_path / "catalog.toml"
    path.write_text('name = "my-copy"\n[guilds.blades]\n')
    assert _owners_catalog(args) == "sample"
    assert "not complete yet" in caplog.text and "playing the sample catalog" in caplog.text
    path.write_text(SAMPLE.read_text().replace('name = "sample"', 'name = "my-copy"'))
    assert _owners_catalog(args) == str(path)


def test_a_card_changed_on_the_form_keeps_what_the_form_has_no_field_for(table) -> None:
    owner = building(table)
    path = table.state_dir / "catalog.toml"
    path.write_text(
        'name = "my-copy"\n[guilds.blades]\n\n[[cards]]  # mine\nid = "blades_base"\n'
        'kind = "base"\nguild = "blades"\nvp = 0\nnames = { de = "Klingen-Gilde" }\n'
    )
    status, saved = owner.post(
        "api/catalog/save",
        {
            "entry": {"id": "blades_base", "kind": "base", "guild": "blades", "vp": 1},
            "replaces": "blades_base",
        },
    )
    assert status == 200, saved
    (card,) = read_catalog(path)["cards"]
    assert card == {
        "id": "blades_base",
        "kind": "base",
        "guild": "blades",
        "vp": 1,
        "names": {"de": "Klingen-Gilde"},
    }
    assert "[[cards]]  # mine" in path.read_text()
