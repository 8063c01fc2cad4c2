"""The web app's refusals in the game's language: made in English with a key of
`[web_refusal]` (firmware/web/sentences.py), answered over HTTP in German or Persian when the
table shows a game in that language, the JSON's shape unchanged."""

from __future__ import annotations

import base64

import pytest
from web_table import Phone, WebTable

from engine.arcana.problems import problem
from firmware.language import load
from firmware.web.catalog_transfer import CSV_COLUMNS
from firmware.web.pairing import Role
from firmware.web.sentences import in_language, said


def to_language(table: WebTable, code: str) -> None:
    """On the game choice: Select down to the language line, OK until `code` shows."""
    phone = Phone(table.url)
    for _ in range(3):
        table.press("select")
    for _ in range(len(load("en").texts)):  # bounded: en, de, fa come round
        if phone.get("api/words")[1]["language"] == code:
            return
        table.press("ok")
    raise AssertionError(f"the game choice never showed {code}")


def upload(data: bytes) -> dict[str, str]:
    return {"format": "toml", "data": base64.b64encode(data).decode()}


def test_a_sentence_is_english_and_keeps_what_it_needs_to_be_said_again():
    made = said("no_game", game=7)
    assert made == "There is no game 7 in the journal"  # a str: logs and tests read it
    assert in_language(made, "de") == "Im Journal gibt es kein Spiel 7"
    assert in_language(made, "xx") == made  # no such catalog: English, not a failure
    assert in_language("plain words", "de") == "plain words"  # not made with said: as it is
    checked = problem("card_missing", card="m_1", field="vp")  # a catalog check's problem
    assert in_language(checked, "xx") == 'card "m_1": missing value for vp'  # no catalog
    inner = said("not_toml", label="upload", error="Expected '=' (line 1)")
    outer = said("nothing_imported", problems=[inner, "a checker's own sentence"])
    assert in_language(outer, "de") == (
        "Nichts importiert: upload: kein gültiges TOML (Expected '=' (line 1)); "
        "a checker's own sentence"
    )


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_owners_and_a_seats_refusals_come_in_the_games_language(tmp_path, code):
    language, english = load(code), load("en")
    with WebTable(tmp_path / "state") as table:
        owner = table.pair_owner()
        seat = table.pair(table.offer(Role.of_seat(2)), "Bo")
        status, answer = seat.post("api/offers", {"seat": 3})
        assert (status, answer) == (403, {"error": english.text("web_refusal.owner_only")})

        to_language(table, code)
        status, answer = seat.post("api/offers", {"seat": 3})
        assert (status, answer) == (403, {"error": language.text("web_refusal.owner_only")})
        status, answer = Phone(table.url).get("api/state")  # not paired
        assert (status, answer["error"]) == (401, language.text("web_refusal.not_paired"))
        status, answer = owner.post("api/offers", {"seat": 9})
        assert status == 400
        assert answer["error"] == language.text("web_refusal.no_seat_to_pair", seat="9")
        status, answer = owner.get("api/history/99/record")
        assert (status, answer["error"]) == (404, language.text("web_refusal.no_game", game=99))
        status, answer = owner.get("api/nothing/here")
        assert answer["error"] == language.text("web_refusal.nothing_at", path="/api/nothing/here")

        status, answer = owner.post("api/catalog/import", upload(b"name = = 1\n"))
        assert status == 422 and set(answer) == {"error", "problems"}
        (problem,) = answer["problems"]
        start = language.text("web_refusal.not_toml", label="upload", error="")[:-2]
        assert problem.startswith(start), problem  # the parser's own words stay as they are
        assert answer["error"] == language.text("web_refusal.nothing_imported", problems=problem)
        status, answer = owner.post("api/catalog/import", {"format": "toml", "data": "@@"})
        assert answer["error"] == language.text(
            "web_refusal.nothing_imported",
            problems=language.text("web_refusal.upload_not_base64"),
        )
        csv = {"format": "csv", "data": base64.b64encode(b"kind,id,colour\n").decode()}
        status, answer = owner.post("api/catalog/import", csv)
        columns = ", ".join(CSV_COLUMNS)
        said_line = language.text(
            "web_refusal.csv_unknown_column",
            label="upload",
            line=1,
            column="'colour'",
            columns=columns,
        )
        assert status == 422 and answer["problems"] == [said_line], answer
        status, answer = owner.post("api/catalog/save", {"entry": [], "uid": None})
        assert (status, answer["error"]) == (400, language.text("web_refusal.entry_object"))
