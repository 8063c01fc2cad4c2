"""The owner's catalog file saved from the phone: comments, blank lines and order kept
(tomlkit), nothing written for a card the checker refuses, the old file kept whole when a
write fails midway."""

from __future__ import annotations

import difflib
import errno
import shutil
from pathlib import Path

import pytest

from engine.arcana.catalog import card_problems
from firmware.web import catalog_save
from firmware.web.catalog_save import CatalogSaveError, read_catalog, save_catalog_entries

TEMPLATE = Path(__file__).resolve().parents[3] / "docs" / "catalog-template.toml"
ZERO = {"military": 0, "political": 0, "spiritual": 0, "financial": 0}


@pytest.fixture
def owners_file(tmp_path) -> Path:
    path = tmp_path / "catalog.toml"
    shutil.copy(TEMPLATE, path)
    return path


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_a_changed_card_changes_its_line_only_and_a_new_one_goes_at_the_end(owners_file):
    before = owners_file.read_text()
    agent = read_catalog(owners_file)["cards"][1]
    assert agent["id"] == "blades_agent_1"
    saved = save_catalog_entries(
        owners_file,
        [
            {**agent, "arcana": {**ZERO, "military": 3}},
            {"id": "blades_agent_2", "kind": "agent", "guild": "blades", "vp": 0, "arcana": ZERO},
        ],
    )
    after = owners_file.read_text()
    assert saved.numbers == {"blades_agent_1": 2, "blades_agent_2": len(saved.catalog["cards"])}
    assert changed_lines(before, after) == [
        "-arcana = { military = 0, political = 0, spiritual = 0, financial = 0 }",
        "+arcana = {military = 3, political = 0, spiritual = 0, financial = 0}",
        "+",
        "+[[cards]]",
        '+id = "blades_agent_2"',
        '+kind = "agent"',
        '+guild = "blades"',
        "+vp = 0",
        "+arcana = {military = 0, political = 0, spiritual = 0, financial = 0}",
    ]
    # the owner's comment on the id line of the changed card is still there
    assert 'id = "blades_agent_1"            # ... up to blades_agent_9' in after


def test_a_key_the_form_left_out_is_dropped_and_a_card_may_change_its_id(owners_file):
    relic = next(c for c in read_catalog(owners_file)["cards"] if c["id"] == "m_relic_01")
    renamed = {k: v for k, v in relic.items() if k != "name"} | {"id": "m_relic_02"}
    save_catalog_entries(owners_file, [renamed], replaces={"m_relic_02": "m_relic_01"})
    cards = {c["id"]: c for c in read_catalog(owners_file)["cards"]}
    assert "m_relic_01" not in cards and "name" not in cards["m_relic_02"]
    assert cards["m_relic_02"]["fief"] == "automaton"


def test_a_card_the_checker_refuses_writes_nothing_and_says_the_checkers_sentences(owners_file):
    before = owners_file.read_bytes()
    bad = {"id": "x", "kind": "agent", "guild": "blads", "vp": 0, "arcana": ZERO}
    with pytest.raises(CatalogSaveError) as caught:
        save_catalog_entries(owners_file, [bad])
    data = read_catalog(owners_file)
    data["cards"].append(bad)
    expected = card_problems(data, len(data["cards"]))
    assert caught.value.problems == [s for ss in expected.values() for s in ss]
    assert caught.value.problems == ['card "x": unknown guild "blads" in guild']
    assert owners_file.read_bytes() == before


def test_no_file_yet_gives_one_with_the_four_guilds(tmp_path):
    path = tmp_path / "catalog.toml"
    card = {"id": "ferrymen_base", "kind": "base", "guild": "ferrymen", "vp": 0}
    save_catalog_entries(path, [card])
    data = read_catalog(path)
    assert sorted(data["guilds"]) == ["blades", "ferrymen", "thieves", "usurers"]
    assert data["cards"] == [card] and card_problems(data, 1) == {}
    assert path.read_text().startswith("# This copy of Arcana")


def test_a_file_that_is_not_toml_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "catalog.toml"
    path.write_text("name = 'mine'\n[[cards]\n")
    with pytest.raises(CatalogSaveError, match="not valid TOML"):
        save_catalog_entries(path, [{"id": "a", "kind": "game_end", "vp": 0}])
    assert path.read_text() == "name = 'mine'\n[[cards]\n"


class FullDisk:
    """A file whose writes stop at `room` bytes with ENOSPC, as on a full SD card."""

    def __init__(self, real, room: int) -> None:
        self.real, self.room = real, room

    def write(self, text: str) -> int:
        self.real.write(text[: self.room])
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.real.close()


def test_a_save_that_fails_midway_leaves_the_old_file_and_no_scraps(owners_file, monkeypatch):
    before = owners_file.read_bytes()
    full = lambda *a, **k: FullDisk(open(*a, **k), 100)  # noqa: E731, SIM115
    monkeypatch.setattr(catalog_save, "open", full, raising=False)
    card = {
        "id": "m_relic_01",
        "kind": "relic",
        "main": "military",
        "fief": "temple",
        "vp": 1,
        "arcana": {**ZERO, "military": 2},
    }
    with pytest.raises(CatalogSaveError) as caught:
        save_catalog_entries(owners_file, [card])
    assert caught.value.problems == [
        "cannot save catalog.toml (No space left on device); it was not changed"
    ]
    assert owners_file.read_bytes() == before
    assert sorted(p.name for p in owners_file.parent.iterdir()) == ["catalog.toml"]
    monkeypatch.undo()
    save_catalog_entries(owners_file, [card])  # room again: saved
    relic = next(c for c in read_catalog(owners_file)["cards"] if c["id"] == "m_relic_01")
    assert relic["arcana"]["military"] == 2 and relic["fief"] == "temple"


def test_a_failed_rename_leaves_the_old_file_too(owners_file, monkeypatch):
    before = owners_file.read_bytes()

    def refuse(*args):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(catalog_save.os, "replace", refuse)
    with pytest.raises(CatalogSaveError, match="Read-only file system"):
        save_catalog_entries(owners_file, [{"id": "game_end", "kind": "game_end", "vp": 0}])
    assert owners_file.read_bytes() == before
    assert sorted(p.name for p in owners_file.parent.iterdir()) == ["catalog.toml"]
