"""The simulator's JSON API on a served table: every endpoint, bad input, refusals, undo,
hidden information, tokens and the journal across restarts. Taps travel through the emulated
PN532s to the companion; screens are compared with the frames the display driver received."""

from __future__ import annotations

import io
import json
import threading
import urllib.request

import pytest
from PIL import Image

from firmware.controllers import arcana, resarcana
from firmware.controllers.chooser import GAMES
from firmware.language import text
from firmware.screens import ChoiceScreen, RefusalScreen, render
from firmware.steps import Step

CHOOSE_FIRST = "Choose the game first: Select, then OK"


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def snapshot(sim) -> tuple[str, dict[str, bytes]]:
    """Everything a step could change: the state JSON and every display's PNG."""
    status, state = sim.client.get("/api/state")
    assert status == 200
    screens = {}
    for role in state["table"]["displays"]:
        code, data = sim.client.get(f"/api/screens/{role}.png?scale=1")
        assert code == 200
        screens[role] = data
    return json.dumps(state, sort_keys=True), screens


def perform(client, steps) -> None:
    """A bot's physical steps through the API (each must be accepted)."""
    for step in steps:
        if step.kind == "tap":
            status, answer = client.post("/api/tap", {"pad": step.target, "card": step.card})
        else:
            status, answer = client.post("/api/button", {"name": step.target, "held": step.held})
        assert status == 200, answer


def seat_res_arcana(client) -> resarcana.Bot:
    bot = resarcana.Bot(3, 2)
    perform(client, bot.setup_steps())
    return bot


# -- state, screens, page --------------------------------------------------------------------------
def test_a_new_table_shows_the_choice_of_game(sim):
    status, state = sim.client.get("/api/state")
    assert status == 200
    assert state["phase"] == "setup" and state["game"] is None and state["record"] == []
    assert state["table"]["pads"] == ["stake-0", "stake-1", "stake-2", "stake-3", "stake-4"]
    assert state["table"]["buttons"] == ["undo", "select", "ok"]
    assert "status" in state["table"]["displays"]
    code, data = sim.client.get("/api/screens/status.png?scale=1")
    assert code == 200
    labels = (*(text(key) for _, key in GAMES), "Language: English")
    assert same(png(data), render(ChoiceScreen("Which game?", labels)))
    assert (state["table"]["language"], state["table"]["direction"]) == ("en", "ltr")


def test_a_screen_png_is_the_drivers_exact_frame_scaled_by_whole_pixels(sim):
    frame = sim.table.top.screens()["status"]
    _, exact = sim.client.get("/api/screens/status.png?scale=1")
    _, scaled = sim.client.get("/api/screens/status.png")
    assert png(exact).mode == "1" and same(png(exact), frame)
    big = png(scaled)
    assert big.size == (512, 256)
    assert same(big.resize((128, 64), resample=Image.Resampling.NEAREST), frame)
    # Nearest neighbour: every 4x4 block is one colour (crisp, no smoothing).
    pixels = big.convert("L").load()
    assert all(
        pixels[x, y] == pixels[x - x % 4, y - y % 4] for x in range(0, 512, 3) for y in range(256)
    )


@pytest.mark.parametrize(
    ("path", "status", "reason"),
    [
        ("/api/screens/stake-9.png", 400, "There is no display 'stake-9'"),
        ("/api/screens/status.png?scale=0", 400, "scale must be a whole number"),
        ("/api/screens/status.png?scale=big", 400, "scale must be a whole number"),
        ("/api/nothing", 404, "There is nothing at /api/nothing"),
        ("/api/state?seat=0", 400, "There is no seat '0' (seats: none yet"),
    ],
)
def test_bad_reads_answer_4xx_with_the_reason(sim, path, status, reason):
    code, answer = sim.client.get(path)
    assert code == status
    assert answer["error"].startswith(reason)


def test_the_page_and_its_files_are_served(sim):
    status, page = sim.client.get("/")
    assert status == 200 and b'<script src="page/table.js">' in page
    for name in ("table.js", "table.css"):
        status, body = sim.client.get(f"/page/{name}")
        assert status == 200 and len(body) > 500
    assert sim.client.get("/page/secret.py")[0] == 404


# -- buttons and taps ------------------------------------------------------------------------------
def test_buttons_drive_the_chooser_like_the_tables_buttons(sim):
    status, answer = sim.client.post("/api/button", {"name": "ok"})
    assert status == 200 and answer["ok"] is True
    _, data = sim.client.get("/api/screens/status.png?scale=1")
    expected = render(ChoiceScreen("Arcana: variant?", ("Basic game", "Advanced game"), 0))
    assert same(png(data), expected)
    assert sim.client.get("/api/state")[1]["game"] == "arcana"


def test_a_refused_tap_answers_409_with_the_sentence_the_oled_shows(sim):
    status, answer = sim.client.post("/api/tap", {"pad": "stake-1", "card": "seer_orb"})
    assert status == 409
    assert answer == {"ok": False, "error": CHOOSE_FIRST, "where": "status", "version": 1}
    assert sim.table.top.companion.notices["status"].message == CHOOSE_FIRST
    _, data = sim.client.get("/api/screens/status.png?scale=1")
    assert same(png(data), render(RefusalScreen(CHOOSE_FIRST)))


@pytest.mark.parametrize(
    ("path", "raw", "reason"),
    [
        ("/api/tap", b'{"pad": "stake-9", "card": "seer_orb"}', "There is no pad 'stake-9'"),
        ("/api/tap", b'{"pad": "stake-1", "card": "joker"}', "There is no card 'joker'"),
        ("/api/tap", b'{"pad": "stake-1", "card": 7}', "There is no card 7"),
        ("/api/tap", b'{"pad": "stake-1"', "The request body is not valid JSON"),
        ("/api/tap", b"", "The request body must be a JSON object"),
        ("/api/tap", b'["stake-1", "seer_orb"]', "The request body must be a JSON object"),
        ("/api/tap", b'{"card": "seer_orb"}', "The request body lacks pad"),
        ("/api/tap", b"\xff\xfe", "The request body is not UTF-8"),
        ("/api/button", b'{"name": "reset"}', "There is no button 'reset'"),
        ("/api/button", b'{"name": "undo", "held": "yes"}', '"held" must be true or false'),
        ("/api/button", b"{}", "The request body lacks name"),
    ],
)
def test_bad_input_answers_400_with_the_reason_and_changes_nothing(sim, path, raw, reason):
    perform(sim.client, [Step.press("select")])
    before = snapshot(sim)
    status, answer = sim.client.call("POST", path, raw=raw)
    assert status == 400
    assert answer["error"].startswith(reason)
    assert snapshot(sim) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tap", {"pad": "stake-1", "card": "x" * 60_000}),
        ("/api/tap", {"pad": "p" * 60_000, "card": "seer_orb"}),
        ("/api/button", {"name": "b" * 60_000}),
    ],
)
def test_a_huge_unknown_name_is_not_echoed_whole(sim, path, body):
    """A 60,000-character card id is named in the refusal cut short, as `replay` cuts it."""
    status, answer = sim.client.post(path, body)
    assert status == 400 and answer["error"].startswith("There is no ")
    assert len(answer["error"]) < 300


def test_a_get_on_an_action_is_refused(sim):
    status, answer = sim.client.get("/api/tap")
    assert (status, answer["error"]) == (405, "GET is not allowed here (use POST)")


# -- a game through the API ------------------------------------------------------------------------
def test_seating_through_the_api_begins_a_journalled_game(sim):
    seat_res_arcana(sim.client)
    _, state = sim.client.get("/api/state")
    assert state["phase"] == "play" and state["game"] == "res-arcana"
    assert [p["name"] for p in state["players"]] == [p["name"] for p in state["result"]["players"]]
    header = state["record"][0]
    assert header["game"] == "res-arcana" and header["format"] == "arcana-table/record"
    assert [p["pad"] for p in state["players"]] == ["stake-0", "stake-1"]
    assert state["result"]["round"] == 1 and not state["result"]["finished"]


def test_the_setup_offers_the_cards_it_waits_for(sim):
    perform(sim.client, [Step.press("select"), Step.press("ok")])  # Res Arcana
    mages = sim.client.get("/api/state")[1]["table_cards"]
    assert [(c["kind"], c["playable"]) for c in mages] == [("mage", True)] * 4
    assert all(c["pads"] == ["stake-0"] for c in mages)  # seats fill in pad order
    perform(sim.client, [Step.tap("stake-0", mages[2]["id"])])
    after = sim.client.get("/api/state")[1]["table_cards"]
    assert [c["playable"] for c in after] == [True, True, False, True]
    assert all(c["pads"] == ["stake-0", "stake-1"] for c in after)


def test_a_seats_hand_lists_playable_cards_and_greys_the_rest(sim):
    bot = seat_res_arcana(sim.client)
    current = sim.client.get("/api/state")[1]["view"]["current"]
    _, mine = sim.client.get(f"/api/state?seat={current}")
    _, other = sim.client.get(f"/api/state?seat={1 - current}")
    assert mine["hand"]["seat"] == current
    playable = {c["id"] for c in mine["hand"]["cards"] if c["playable"]}

    def legal(state):
        actions = resarcana.RULES.legal_actions(state)
        return {a.card for a in actions if a.player == current and a.kind != "discard" and a.card}

    # The companion does not see hands: what it allows covers what the dealt hand allows.
    assert playable == legal(sim.table.top.companion.controller.state)
    assert legal(bot.state) <= playable
    assert all(card["pads"] == [f"stake-{current}"] for card in mine["hand"]["cards"])
    assert not any(card["playable"] for card in other["hand"]["cards"])  # not their turn
    assert "hand" not in sim.client.get("/api/state")[1]


def test_undo_and_held_undo_take_back_and_redo_an_action(sim):
    bot = seat_res_arcana(sim.client)
    perform(sim.client, bot.next_steps(sim.table.top.companion.controller.state))
    played = sim.client.get("/api/state")[1]["record"]
    status, answer = sim.client.post("/api/button", {"name": "undo"})
    assert status == 200 and answer["ok"] and answer["notice"].startswith("Undone: ")
    undone = sim.client.get("/api/state")[1]
    assert undone["record"] == played[:-1] and undone["can_redo"]
    status, answer = sim.client.post("/api/button", {"name": "undo", "held": True})
    assert status == 200 and answer["notice"].startswith("Redone: ")
    assert sim.client.get("/api/state")[1]["record"] == played


def test_nothing_to_undo_is_a_refusal(sim):
    seat_res_arcana(sim.client)
    status, answer = sim.client.post("/api/button", {"name": "undo"})
    assert (status, answer["error"], answer["where"]) == (409, "Nothing to undo", "status")


def test_a_finished_game_ranks_the_players_and_a_new_game_goes_back_to_the_choice(sim):
    bot = resarcana.Bot(5, 2)
    assert sim.client.post("/api/new-game")[0] == 409  # no game to leave yet
    perform(sim.client, bot.setup_steps())
    while not sim.table.top.companion.controller.is_over():
        perform(sim.client, bot.next_steps(sim.table.top.companion.controller.state))
    state = sim.client.get("/api/state")[1]
    assert state["phase"] == "over" and state["result"]["finished"]
    ranks = {p["name"]: (p["rank"], p["winner"]) for p in state["players"]}
    for player in state["result"]["players"]:
        better = sum(1 for o in state["result"]["players"] if o["vp"] > player["vp"])
        assert ranks[player["name"]] == (
            better + 1,
            player["name"] in state["result"]["winners"],
        )
    status, answer = sim.client.post("/api/new-game")
    assert status == 200 and answer["ok"]
    assert sim.client.get("/api/state")[1]["phase"] == "setup"


# -- hidden information ----------------------------------------------------------------------------
def play_until_face_down(sim) -> tuple[int, str]:
    """Play a seeded Arcana game until some agent lies face down; (its owner, its id)."""
    bot = arcana.Bot(2, 2)
    perform(sim.client, bot.setup_steps())
    for _ in range(200):
        state = sim.table.top.companion.controller.state
        for stake in state.stakes:
            for player, side in enumerate(stake.agents):
                for card, down in side:
                    if down:
                        return player, card
        perform(sim.client, bot.next_steps(state))
    raise AssertionError("no agent was ever placed face down")


def shared_text(state: dict) -> str:
    """Every part of a state answer except the card box (the catalog lists every card)."""
    return json.dumps({key: value for key, value in state.items() if key != "box"})


def test_face_down_agents_show_only_in_their_owners_hand(sim):
    owner, agent = play_until_face_down(sim)
    public = sim.client.get("/api/state")[1]
    assert agent not in shared_text(public)
    assert None in [c for line in public["record"][1:] for c in [line.get("card")]]
    other = sim.client.get(f"/api/state?seat={1 - owner}")[1]
    assert agent not in shared_text(other)
    mine = sim.client.get(f"/api/state?seat={owner}")[1]
    assert agent in [item["card"] for item in mine["hand"]["secret"]["face_down"]]
    # The result counts the hidden agent, never lists it (not even as a null).
    stakes = public["result"]["stakes"]
    assert sum(sum(stake["hidden"]) for stake in stakes) >= 1
    assert not any(None in side for stake in stakes for side in stake["agents"])
    assert all(isinstance(player["owned"], int) for player in public["result"]["players"])


# -- tokens ----------------------------------------------------------------------------------------
@pytest.fixture
def guarded(make_sim):
    return make_sim(token="s3cret")


@pytest.mark.parametrize(
    ("headers", "query", "reason"),
    [
        ({}, "", "This table needs its token"),
        ({"Authorization": "Bearer wrong"}, "", "Wrong token"),
        ({}, "?token=wrong", "Wrong token"),
    ],
)
def test_with_a_token_every_api_call_must_carry_it(guarded, headers, query, reason):
    anonymous = guarded.anonymous()
    before = snapshot(guarded)
    for method, path, body in [
        ("GET", "/api/state", None),
        ("GET", "/api/screens/status.png", None),
        ("GET", "/api/events", None),
        ("POST", "/api/button", {"name": "ok"}),
        ("POST", "/api/tap", {"pad": "stake-0", "card": "seer_orb"}),
        ("POST", "/api/new-game", None),
    ]:
        status, answer = anonymous.call(method, path + query, body=body, headers=headers)
        assert status == 401, path
        assert answer["error"].startswith(reason)
    assert snapshot(guarded) == before


def test_the_right_token_works_in_the_header_or_the_address(guarded):
    assert guarded.client.post("/api/button", {"name": "ok"})[0] == 200
    anonymous = guarded.anonymous()
    status, state = anonymous.get("/api/state?token=s3cret")
    assert status == 200 and state["game"] == "arcana"
    assert anonymous.get("/")[0] == 200  # the page itself holds no secret


# -- the live stream -------------------------------------------------------------------------------
def read_event(stream) -> tuple[str, str]:
    fields = {}
    while True:
        line = stream.readline().decode().rstrip("\n")
        if not line:
            if fields:
                return fields["event"], fields["data"]
            continue
        if not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


def test_the_event_stream_announces_every_change(sim):
    with urllib.request.urlopen(sim.url + "api/events", timeout=30) as stream:
        assert stream.headers.get_content_type() == "text/event-stream"
        assert read_event(stream) == ("version", "0")
        done = threading.Event()

        def press() -> None:
            sim.client.post("/api/button", {"name": "select"})
            done.set()

        threading.Thread(target=press).start()
        assert read_event(stream) == ("version", "1")
        assert done.wait(30)


# -- time and the journal --------------------------------------------------------------------------
def test_notices_expire_as_time_passes(sim):
    sim.client.post("/api/tap", {"pad": "stake-1", "card": "seer_orb"})
    version = sim.table.version
    assert sim.table.tick(1.0) is False  # still showing
    assert sim.table.tick(5.0) is True
    assert "status" not in sim.table.top.companion.notices and sim.table.version == version + 1


def test_a_restarted_simulator_finds_the_game_where_it_was(make_sim):
    first = make_sim()
    bot = seat_res_arcana(first.client)
    for _ in range(3):
        perform(first.client, bot.next_steps(first.table.top.companion.controller.state))
    before = snapshot(first)
    first.stop()
    after = snapshot(make_sim())
    assert json.loads(after[0])["record"] == json.loads(before[0])["record"]
    assert len(json.loads(after[0])["record"]) == 4
    assert after[1] == before[1]


# -- a minimal table ----------------------------------------------------------------------------
def test_a_minimal_tables_one_pad_seats_the_players_role_by_role(make_sim):
    sim = make_sim(profile="minimal")
    table = sim.client.get("/api/state")[1]["table"]
    assert (table["pads"], table["displays"], table["focus"]) == (["main"], ["main"], "status")
    status, answer = sim.client.post("/api/tap", {"pad": "stake-0", "card": "fire_mage"})
    assert status == 400 and answer["error"].startswith("There is no pad 'stake-0'")
    bot = resarcana.Bot(5, 2)
    for step in bot.setup_steps():
        if step.kind == "press":
            assert sim.client.post("/api/button", {"name": step.target})[0] == 200
            continue
        while sim.client.get("/api/state")[1]["table"]["focus"] != step.target:
            assert sim.client.post("/api/button", {"name": "select", "held": True})[0] == 200
        assert sim.client.post("/api/tap", {"pad": "main", "card": step.card})[0] == 200
    current = sim.client.get("/api/state")[1]["view"]["current"]  # the drawn start player
    state = sim.client.get(f"/api/state?seat={current}")[1]
    assert state["phase"] == "play"
    assert [p["pad"] for p in state["players"]] == ["stake-0", "stake-1"]
    pads = {pad for card in state["hand"]["cards"] for pad in card["pads"]}
    assert pads == {f"stake-{current}"}


def test_a_german_arcana_game_through_the_api_says_everything_in_german(sim):
    from firmware.controllers import arcana
    from firmware.language import using

    perform(sim.client, [Step.press("select")] * 3 + [Step.press("ok"), Step.press("select")])
    _, state = sim.client.get("/api/state")
    assert (state["table"]["language"], state["table"]["direction"]) == ("de", "ltr")
    _, data = sim.client.get("/api/screens/status.png?scale=1")
    german = ("Arcana", "Res Arcana", "Karten anlernen", "Sprache: Deutsch")
    assert same(png(data), render(ChoiceScreen("Welches Spiel?", german), language="de"))
    bot = arcana.Bot(14, 2)
    perform(sim.client, bot.setup_steps())
    _, state = sim.client.get("/api/state")
    assert state["prompt"].endswith("Karte ausspielen.")  # the page's line from the screen
    assert state["pad_labels"]["stake-4"] == "Freihandelszone"
    # an agent of the guild not to act, out of turn: the engine's refusal in German, by code
    view = state["view"]
    other = 1 - view["pending"]["player"]
    controller = sim.table.top.companion.controller
    agent = next(
        c
        for c in sim.table.games.catalog.guild_cards(controller.state.guilds[other])
        if c.kind == "agent"
    )
    code, _ = sim.client.post("/api/tap", {"pad": "stake-1", "card": agent.id})
    assert code == 409  # refused: nothing played, the sentence on the pad's screen
    _, state = sim.client.get("/api/state")
    assert state["notices"]["stake-1"] == "Du bist nicht am Zug"
    _, data = sim.client.get("/api/screens/stake-1.png?scale=1")
    assert same(png(data), render(RefusalScreen("Du bist nicht am Zug")))
    with using("de"):
        status_screen = controller.screens()["status"]
    _, data = sim.client.get("/api/screens/status.png?scale=1")
    assert same(png(data), render(status_screen, language="de"))
