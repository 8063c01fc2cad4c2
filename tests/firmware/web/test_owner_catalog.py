"""The owner's catalog pages over HTTP on an emulated table: progress, the catalog's and the
tag bindings' import and export, Res Arcana enrollment by a tap on a pad; owner only."""

from __future__ import annotations

import base64
import tomllib

import pytest
from web_table import WebTable, wait_until

from engine.arcana.catalog import CATALOG_DIR
from firmware.journal import Journal
from firmware.language import load as load_language
from firmware.tabletop import uid_for
from firmware.web.catalog_transfer import MAX_UPLOAD, to_csv, to_toml
from firmware.web.pairing import Role
from hardware.nfc.tags import Ntag

SAMPLE = tomllib.loads((CATALOG_DIR / "sample.toml").read_text(encoding="utf-8"))


def partial(count: int) -> dict:
    return {**SAMPLE, "cards": SAMPLE["cards"][:count]}


def bound(table: WebTable) -> dict[str, str]:
    """The journal's bindings, read as `arcana-table enroll --list` reads them."""
    journal = Journal.open(table.state_dir, read_only=True)
    try:
        return journal.bindings()
    finally:
        journal.close()


def last_tap(owner) -> dict:
    return owner.get("api/enroll/res-arcana")[1]["tap"] or {}


def upload(text: str | bytes) -> str:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return base64.b64encode(raw).decode("ascii")


@pytest.fixture
def table(tmp_path):
    with WebTable(tmp_path) as served:
        yield served


@pytest.fixture
def owner(table):
    return table.pair_owner()


def test_only_the_owner_sees_the_catalog_pages(table, owner) -> None:
    seat = table.pair(table.offer(Role.of_seat(1)))
    for path in ("api/catalog/progress", "api/catalog/export", "api/enroll/res-arcana"):
        status, answer = seat.get(path)
        assert status == 403 and "owner" in answer["error"]
    status, _ = seat.post("api/catalog/import", {"format": "toml", "data": upload("x")})
    assert status == 403
    assert not (table.state_dir / "catalog.toml").exists()
    assert owner.get("progress")[0] == 200 and owner.get("page/progress.js")[0] == 200


def test_progress_of_an_empty_table_then_an_imported_csv(table, owner) -> None:
    status, seen = owner.get("api/catalog/progress")
    assert status == 200 and not seen["exists"] and seen["entered"] == 0
    assert seen["missing"] == 162 and seen["file"] == str(table.state_dir / "catalog.toml")
    status, answer = owner.get("api/catalog/export")
    assert status == 404 and "no catalog file yet" in answer["error"]

    status, done = owner.post(
        "api/catalog/import", {"format": "csv", "data": upload(to_csv(partial(30)))}
    )
    assert status == 200 and done["imported"]["cards"] == 30
    status, seen = owner.get("api/catalog/progress")
    assert seen["entered"] == 30 and seen["guilds"][1]["missing"] == 0
    assert seen["guilds"][2]["kinds"]["agent"]["missing"] == 4
    assert seen["check"]["problems"] == [] and seen["check"]["lacking"]
    status, toml = owner.get("api/catalog/export?format=toml")
    assert status == 200 and tomllib.loads(toml.decode()) == partial(30)
    status, csv = owner.get("api/catalog/export?format=csv")
    assert status == 200 and csv.decode() == to_csv(partial(30))


def test_a_malformed_import_changes_nothing_and_says_why(table, owner) -> None:
    original = to_toml(partial(12)).encode()
    assert owner.post("api/catalog/import", {"format": "toml", "data": upload(original)})[0] == 200
    path = table.state_dir / "catalog.toml"
    bad = partial(12)
    bad["cards"] = [*bad["cards"], {"id": "m_1", "kind": "relic", "vp": 1, "main": "gold"}]
    status, answer = owner.post(
        "api/catalog/import", {"format": "csv", "data": upload(to_csv(bad))}
    )
    assert status == 422 and answer["error"].startswith("Nothing imported: ")
    assert 'card "m_1": unknown arcanum "gold" in main' in answer["problems"]
    assert path.read_bytes() == original
    status, answer = owner.post("api/catalog/import", {"format": "toml", "data": "%%%"})
    assert status == 400 and "not base64" in answer["error"]
    assert path.read_bytes() == original


def test_a_huge_upload_is_refused_before_it_is_read(table, owner) -> None:
    huge = upload(b"# " + b"x" * 100_000)
    status, answer = owner.post("api/catalog/import", {"format": "toml", "data": huge})
    assert status == 413 and "larger than" in answer["error"]
    assert not (table.state_dir / "catalog.toml").exists()


def test_tag_bindings_import_and_export_all_or_nothing(table, owner) -> None:
    good = "uid,card\n04a1b2c3d4e5f6,blades_agent_1\n04:a1:b2:c3:d4:e5:00,seer_orb\n"
    status, answer = owner.post("api/bindings/import", {"game": "arcana", "data": upload(good)})
    assert status == 422 and "line 3: seer_orb is not a card of sample" in answer["error"]
    assert bound(table) == {}
    good = "uid,card\n04a1b2c3d4e5f6,blades_agent_1\n"
    assert owner.post("api/bindings/import", {"game": "arcana", "data": upload(good)})[0] == 200
    res = "uid,card\n04:a1:b2:c3:d4:e5:00,seer_orb\n"
    assert owner.post("api/bindings/import", {"game": "res-arcana", "data": upload(res)})[0] == 200
    assert owner.get("api/bindings/export?game=arcana")[1] == good.encode()
    assert owner.get("api/bindings/export?game=res-arcana")[1] == (
        b"uid,card\n04a1b2c3d4e500,seer_orb\n"
    )
    registry = table.loop.companion.registry  # the running table knows them at once
    assert registry.card_for("04a1b2c3d4e5f6", None) == "blades_agent_1"
    status, seen = owner.get("api/catalog/progress")
    assert seen["tags"]["bound"] == 1  # Res Arcana's tags are not the catalog's
    assert seen["tags"]["not_in_catalog"] == [{"uid": "04a1b2c3d4e5f6", "card": "blades_agent_1"}]


def test_res_arcana_enrollment_binds_the_tag_just_tapped(table, owner) -> None:
    status, seen = owner.get("api/enroll/res-arcana")
    assert status == 200 and seen["tap"] is None and seen["unbound"] == len(seen["cards"]) == 39
    assert owner.post("api/enroll/res-arcana", {"tap": 1, "card": "seer_orb"})[0] == 409
    uid = uid_for("blank-1")
    table.table.pads["stake-2"].place(Ntag(uid))
    assert wait_until(lambda: owner.get("api/enroll/res-arcana")[1]["tap"] is not None)
    tap = owner.get("api/enroll/res-arcana")[1]["tap"]
    assert tap["uid"] == uid and tap["pad"] == "stake-2" and tap["card"] is None
    status, answer = owner.post("api/enroll/res-arcana", {"tap": tap["seq"], "card": "seer_orbb"})
    assert status == 400 and "did you mean seer_orb" in answer["error"]
    status, done = owner.post("api/enroll/res-arcana", {"tap": tap["seq"], "card": "seer_orb"})
    assert status == 200 and done["bound"]["uid"] == uid
    seen = owner.get("api/enroll/res-arcana")[1]
    assert next(c for c in seen["cards"] if c["id"] == "seer_orb")["tags"] == [uid]
    assert seen["tap"]["card"] == "seer_orb" and seen["unbound"] == 38
    assert seen["tap"]["shown"] == "Seer's Orb"  # the card's name, in the game's language
    assert table.loop.companion.registry.card_for(uid, None) == "seer_orb"
    status, answer = owner.post("api/enroll/res-arcana", {"tap": tap["seq"], "card": "brazier"})
    assert status == 409 and "re-bind it to brazier?" in answer["error"]
    assert answer["rebind"] == "seer_orb"  # what the page acts on, in any language
    body = {"tap": tap["seq"], "card": "brazier", "rebind": True}
    assert owner.post("api/enroll/res-arcana", body)[0] == 200
    assert bound(table) == {uid: "brazier"}


def test_a_tag_tapped_after_the_owner_chose_is_not_bound(table, owner) -> None:
    first, second = uid_for("blank-1"), uid_for("blank-2")
    table.table.pads["stake-0"].place(Ntag(first))
    assert wait_until(
        lambda: (owner.get("api/enroll/res-arcana")[1]["tap"] or {}).get("uid") == first
    )
    seq = owner.get("api/enroll/res-arcana")[1]["tap"]["seq"]
    table.table.pads["stake-1"].place(Ntag(second))
    assert wait_until(lambda: owner.get("api/enroll/res-arcana")[1]["tap"]["uid"] == second)
    status, answer = owner.post("api/enroll/res-arcana", {"tap": seq, "card": "seer_orb"})
    assert status == 409 and "tapped since" in answer["error"]
    assert bound(table) == {}


def test_the_largest_upload_fits_the_request_limit(table, owner) -> None:
    largest = b"#" * (MAX_UPLOAD - 1) + b"\n"  # a file of MAX_UPLOAD bytes: the checker answers
    status, answer = owner.post("api/catalog/import", {"format": "toml", "data": upload(largest)})
    assert status == 422 and "missing value for the catalog's name" in answer["error"]
    one_more = {"format": "toml", "data": upload(largest + b"#")}
    status, answer = owner.post("api/catalog/import", one_more)
    assert status == 413 and f"at most {MAX_UPLOAD}" in answer["error"]


def test_the_file_the_table_plays_must_stay_playable(tmp_path) -> None:
    played = tmp_path / "catalog.toml"
    played.write_text(to_toml(SAMPLE), encoding="utf-8")
    with WebTable(tmp_path, catalog=str(played)) as table:
        owner = table.pair_owner()
        assert owner.get("api/catalog/progress")[1]["plays"] is True
        body = {"format": "csv", "data": upload(to_csv(partial(40)))}
        status, answer = owner.post("api/catalog/import", body)
        assert status == 422 and "the table plays catalog.toml" in answer["error"]
        assert tomllib.loads(played.read_text(encoding="utf-8")) == SAMPLE
        renamed = {**SAMPLE, "name": "my-copy"}
        body = {"format": "csv", "data": upload(to_csv(renamed))}
        status, answer = owner.post("api/catalog/import", body)
        assert status == 200 and "next start" in answer["imported"]["note"]
        assert tomllib.loads(played.read_text(encoding="utf-8")) == renamed


def test_the_counts_name_each_guild_in_every_language_the_catalogs_own_names_first():
    from firmware.web.catalog_progress import progress

    guilds = {
        "blades": {"name": "Guild of Blades", "names": {"de": "Unsere Klingen"}},
        "mine": {"name": "Moles"},  # no name in another language anywhere: left out
    }
    counted = {g["id"]: g for g in progress({"guilds": guilds}, {})["guilds"]}
    assert counted["blades"]["name"] == "Guild of Blades"
    assert counted["blades"]["names"]["de"] == "Unsere Klingen"  # the catalog's own
    assert counted["blades"]["names"]["fa"] == load_language("fa").names["Guild of Blades"]
    assert counted["mine"]["names"] == {}
    box = {g["id"]: g["names"]["de"] for g in progress({}, {})["guilds"]}  # no file: the box's
    assert box == {
        "blades": "Klingen",
        "ferrymen": "Fährleute",
        "thieves": "Diebe",
        "usurers": "Wucherer",
    }
