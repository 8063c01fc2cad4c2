"""The simulator names Res Arcana's pads by the profile's seats: "Seat N" on the page (the
API's `pad_labels`), on the OLEDs (the drivers' frames), in the players' pads and in where a
card may be tapped, also when the profile seats the pads out of pad order."""

from __future__ import annotations

import io

from PIL import Image

from engine.resarcana import CARDS
from firmware.controllers import resarcana
from firmware.screens import PromptIcon, PromptScreen, render
from tests.support.seats import RESEATED, reseated_text

FIRST_FOUR = ("stake-0", "stake-1", "stake-2", "stake-3")


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def choose_res_arcana(client) -> dict:
    for name in ("select", "ok"):
        assert client.post("/api/button", {"name": name})[0] == 200
    return client.get("/api/state")[1]


def oled(client, role: str) -> Image.Image:
    status, data = client.get(f"/api/screens/{role}.png?scale=1")
    assert status == 200
    return Image.open(io.BytesIO(data))


def reseated_sim(make_sim, tmp_path):
    path = tmp_path / "reseated.toml"
    path.write_text(reseated_text())
    return make_sim(profile=str(path))


def test_the_shipped_full_table_seats_stake_pads_1_to_4(sim):
    state = choose_res_arcana(sim.client)
    assert state["table"]["seats"] == list(FIRST_FOUR)
    assert state["pad_labels"] == {pad: f"Seat {n}" for n, pad in enumerate(FIRST_FOUR, 1)}


def test_the_page_and_the_oleds_name_the_profiles_seats(make_sim, tmp_path):
    sim = reseated_sim(make_sim, tmp_path)
    state = choose_res_arcana(sim.client)
    assert state["table"]["seats"] == list(RESEATED)
    assert state["pad_labels"] == {
        "stake-3": "Seat 1",
        "stake-1": "Seat 2",
        "stake-4": "Seat 3",
        "stake-0": "Seat 4",
    }  # stake-2 is no seat: named by its role
    for n, pad in enumerate(RESEATED, start=1):
        assert same(oled(sim.client, pad), render(PromptScreen("Tap your mage", title=f"Seat {n}")))
    mages = state["table_cards"]
    assert mages and all(card["pads"] == ["stake-3"] for card in mages)  # seat 1 first
    assert sim.client.post("/api/tap", {"pad": "stake-3", "card": mages[0]["id"]})[0] == 200
    seated = render(PromptScreen(mages[0]["name"], "Seat 1", PromptIcon.NONE))
    assert same(oled(sim.client, "stake-3"), seated)
    after = sim.client.get("/api/state")[1]["table_cards"]
    assert all(card["pads"] == ["stake-3", "stake-1"] for card in after)


def test_a_game_set_up_on_the_profiles_seats_plays_on_them(make_sim, tmp_path):
    sim = reseated_sim(make_sim, tmp_path)
    sim.table.set_up("res-arcana", 3, seed=5)
    state = sim.client.get("/api/state")[1]
    assert state["phase"] == "play"
    assert [p["pad"] for p in state["players"]] == list(RESEATED[:3])
    mages = resarcana.Bot(5, 3).deal["mages"]  # what set_up taps, seat 1 first
    assert [p["name"] for p in state["players"]] == [CARDS[mage].name for mage in mages]
    current = state["view"]["current"]
    hand = sim.client.get(f"/api/state?seat={current}")[1]["hand"]
    pads = {pad for card in hand["cards"] for pad in card["pads"]}
    assert pads == {RESEATED[current]}
