"""The enrollment's sentences (firmware/enrollment.py, enrollment_csv.py) come in the page's
language on the owner's pages: each is a `Said`, its English word for word `[web_refusal]`'s,
said again in German and Persian with its values (tag UIDs, card ids, line numbers, the CSV
reader's own words as they are); a bindings import refused in German or Persian binds
nothing."""

from __future__ import annotations

import base64
import codecs
import copy

import pytest
from web_table import WebTable

from firmware.enrollment import EnrollError, Enrollment
from firmware.enrollment_csv import CsvProblem, read_rows
from firmware.errors import Said
from firmware.journal import Journal
from firmware.language import load
from firmware.web.sentences import from_error, in_language

UID_A, UID_B = "04a1b2c3d4e5f6", "04a1b2c3d4e500"
CARDS = {"blades_agent_1": "Blades agent 1", "blades_agent_3": "Blades agent 3"}


def refused(do) -> EnrollError | CsvProblem:
    try:
        do()
    except (EnrollError, CsvProblem) as err:
        return err
    raise AssertionError("not refused")


def every_sentence(tmp_path) -> list[Said]:
    """One of each sentence the enrollment and the CSV reader say, as they say it."""
    with Journal.open(tmp_path) as journal:
        enrolling = Enrollment(journal, "sample", CARDS)
        said: list[Said] = []
        for uid, card in [("zz", "blades_agent_1"), ("0401", "blades_agent_1")]:
            said.append(from_error(refused(lambda uid=uid, card=card: enrolling.bind(uid, card))))
        for card in ["blades_agent_9x", "nothing_like_it"]:
            said.append(from_error(refused(lambda card=card: enrolling.bind(UID_A, card))))
        enrolling.bind(UID_A, "blades_agent_1")
        said.append(from_error(refused(lambda: enrolling.bind(UID_A, "blades_agent_3"))))
        said.extend(enrolling.bind(UID_B, "blades_agent_1").warnings)  # bound twice: a warning
        rows = "\n".join(
            [
                f"{UID_A},blades_agent_1,extra",
                f"{UID_A},",
                f"{UID_A},bad\tcard",
                f"{UID_A},blades_agent_3",
                "04a1b2c3d4e501,blades_agent_3",
                "04a1b2c3d4e501,blades_agent_3",
                *["zz,blades_agent_1"] * 20,
            ]
        )
        imported = refused(lambda: enrolling.import_csv(rows))
        assert len(imported.problems) == 21
        said.extend(imported.problems)
        said.append(imported.problems[0].params["problem"])  # each row's own problem too
        said.extend(p.params["problem"] for p in imported.problems[1:5])
        for data in [
            codecs.BOM_UTF16_LE + b"\x00\xd8",
            b"uid,card\n\x81",
            b"uid,card\n\x00",
            f"uid,card\n{UID_A},{'y' * 300}\n".encode(),
            f"uid,card\n{UID_A},{'y' * 200_000}\n".encode(),
        ]:
            problem = refused(lambda data=data: read_rows(data))
            said.append(problem.reason)
            said.append(from_error(refused(lambda data=data: enrolling.import_csv(data))))
    return said


def filled(code: str, said: Said) -> str:
    values = {k: filled(code, v) if isinstance(v, Said) else v for k, v in said.params.items()}
    return load(code).text(f"web_refusal.{said.key}", **values)


def test_each_enrollment_sentence_is_englishs_catalog_sentence_word_for_word(tmp_path):
    sentences = every_sentence(tmp_path)
    for said in sentences:
        assert isinstance(said, Said), said
        assert filled("en", said) == said
        assert in_language(said, "en") == said
    kept = copy.deepcopy(sentences[0])  # as a cache or a queue between threads may keep it
    assert (kept, kept.key, kept.params) == (sentences[0], "enroll_not_uid", {"uid": "'zz'"})
    made = {said.key for said in sentences}
    keys = {k.removeprefix("web_refusal.") for k in load("en").texts}
    reader = {"csv_not_text", "csv_not_text_either", "csv_nul", "csv_long_field", "csv_not_csv"}
    assert made == {k for k in keys if k.startswith("enroll_")} | reader  # every one is said


@pytest.mark.parametrize("code", ["de", "fa"])
def test_each_enrollment_sentence_is_said_in_the_language_with_its_values(tmp_path, code):
    for said in every_sentence(tmp_path):
        shown = in_language(said, code)
        assert shown == filled(code, said) and shown != said, said
        for value in said.params.values():
            if not isinstance(value, Said) and value != "":
                assert str(value) in shown, (said.key, value, shown)


def upload(text: str) -> str:
    return base64.b64encode(text.encode()).decode("ascii")


@pytest.mark.parametrize("code", ["de", "fa"])
def test_a_bindings_import_is_refused_in_the_tables_language_and_binds_nothing(tmp_path, code):
    language = load(code)

    def text(key: str, **params) -> str:
        return language.text(f"web_refusal.{key}", **params)

    with WebTable(tmp_path / "state", language=code) as table:
        owner = table.pair_owner()
        rows = f"uid,card\n{UID_A},seer_orb\nzz,seer_orb\n{UID_B},nosuch_card\n"
        status, answer = owner.post("api/bindings/import", {"game": "arcana", "data": upload(rows)})
        not_a_card = text("enroll_not_a_card", card="seer_orb", catalog="sample")
        not_uid = text("enroll_not_uid", uid="'zz'")
        problems = [
            text("enroll_line", where="", line=2, problem=not_a_card),
            text("enroll_line", where="", line=3, problem=not_uid),
        ]
        assert status == 422 and answer["problems"][:2] == problems
        line_4 = text("enroll_line", where="", line=4, problem="@").partition("@")[0]
        assert len(answer["problems"]) == 3 and answer["problems"][2].startswith(line_4)
        assert answer["error"] == text("nothing_imported", problems="; ".join(answer["problems"]))
        bad = b"uid,card\n\x00\n"
        body = {"game": "res-arcana", "data": base64.b64encode(bad).decode()}
        status, answer = owner.post("api/bindings/import", body)
        nul = text("enroll_line", where="", line=2, problem=text("csv_nul"))
        assert (status, answer["problems"]) == (422, [nul])
        exported = owner.get("api/bindings/export?game=arcana")[1]
        assert exported == b"uid,card\n"  # nothing was bound
        good = f"uid,card\n{UID_A},seer_orb\n{UID_B},seer_orb\n"
        body = {"game": "res-arcana", "data": upload(good)}
        status, answer = owner.post("api/bindings/import", body)
        assert (status, answer["warnings"]) == (
            200,
            [
                text("enroll_also_bound", card="seer_orb", other=UID_B),
                text("enroll_also_bound", card="seer_orb", other=UID_A),
            ],
        )
