"""The web pages' words come from the language catalogs: every key the simulator's page and the
phone's pages use is in English's catalog (so in every language: tests/firmware/test_language.py)
with the placeholders the page fills, the HTML's English stand-ins are the catalog's, and the
server gives the words of the game's language (Persian: right to left)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from firmware.language import load
from firmware.language import using as using_language

SIM = resources.files("firmware.sim").joinpath("page")
WEB = resources.files("firmware.web").joinpath("page")
PAGE_FILES = [
    SIM / "index.html",
    SIM / "table.js",
    WEB / "words.js",
    WEB / "api.js",
    WEB / "phone.html",
    WEB / "phone.js",
    WEB / "pair.html",
    WEB / "pair.js",
    WEB / "catalog.js",
    WEB / "progress.html",
    WEB / "progress.js",
    WEB / "history.js",
]
ENGLISH = load("en")

# word("sim.picked", { card: card.name, pads }): the key and the names of the object given
CALL = re.compile(r"\bword\(\s*\"([\w.]+)\"(?:\s*,\s*\{([^{}]*)\})?\s*\)")
# the only lookups by a key made at run time: an essence of the catalog, its page's own
DYNAMIC = {'word("essence." + k)', "word(node.dataset.word)", "word(connected)",
           "word(node.getAttribute(source))", 'word("catalog.kind_" + kind)',
           "word(GAMES[game.game])", "word(STATUSES[game.status])",
           'word("role." + role.kind)', 'word("sim.kind_" + kind)',
           'word("sim.action_" + action)', 'word("catalog.effect_" + effect)'}  # fmt: skip
# a key written as a string outside word(...), e.g. history.js's STATUSES: "history.status_finished"
TABLES = "sim|phone|legend|catalog|progress|history|choice|essence"
QUOTED_KEY = re.compile(rf"\"((?:{TABLES})\.\w+)\"(?!\s*\+)")
ATTRIBUTE = re.compile(r"\bdata-word(?:-[a-z-]+)?=\"([\w.]+)\"")
TEXT = re.compile(r"<\w+[^>]*\bdata-word=\"([\w.]+)\"[^>]*>([^<]*)<")
PLACEHOLDER = re.compile(r"placeholder=\"([^\"]*)\" data-word-placeholder=\"([\w.]+)\"")


def fields(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def given(params: str | None) -> set[str]:
    names = set()
    for part in (params or "").split(","):
        if part.strip():
            names.add(part.split(":")[0].strip())
    return names


def source(path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_word_the_pages_look_up_has_a_key_with_the_placeholders_they_fill():
    calls = [(m.group(1), m.group(2)) for path in PAGE_FILES for m in CALL.finditer(source(path))]
    assert len(calls) > 45  # the scan sees the pages' words, not nothing
    missing = sorted({key for key, _ in calls if key not in ENGLISH.texts})
    assert missing == [], "keys the pages use that no catalog has"
    mismatched = {
        key: (sorted(fields(ENGLISH.texts[key])), sorted(given(params)))
        for key, params in calls
        if fields(ENGLISH.texts[key]) != given(params)
    }
    assert mismatched == {}, "placeholders of the catalog vs the names the page gives"


def test_every_lookup_by_a_computed_key_is_one_of_the_known_few():
    for path in PAGE_FILES:
        text = source(path)
        for found in re.finditer(r"(?<!function )\bword\(", text):
            at = found.start()
            literal = CALL.match(text, at)
            assert literal or any(text.startswith(d, at) for d in DYNAMIC), (
                f"{path.name}: {text[at : at + 60]!r} looks a word up by a key no test can see"
            )


def test_every_word_of_the_html_has_a_key_and_its_english_stand_in_is_the_catalogs():
    keys, texts = [], []
    for path in PAGE_FILES:
        if path.name.endswith(".html"):
            html = source(path)
            keys += ATTRIBUTE.findall(html)
            texts += TEXT.findall(html)
            texts += [(key, shown) for shown, key in PLACEHOLDER.findall(html)]
    assert len(keys) > 30
    assert sorted(set(keys) - set(ENGLISH.texts)) == []
    assert {key: shown for key, shown in texts if ENGLISH.texts[key] != shown} == {}
    assert all(not fields(ENGLISH.texts[key]) for key in keys)  # the HTML fills no names


def test_every_page_loads_the_words_before_its_own_script():
    for path in PAGE_FILES:
        if path.name.endswith(".html"):
            html = source(path)
            assert "/words.js" in html and html.index("/words.js") < html.rindex('.js"></script>')


def test_every_key_the_pages_keep_in_a_table_of_their_own_is_in_the_catalog():
    scripts = [source(path) for path in PAGE_FILES if path.name.endswith(".js")]
    quoted = {key for script in scripts for key in QUOTED_KEY.findall(script)}
    assert {"history.status_finished", "choice.res_arcana"} <= quoted  # the scan sees them
    assert sorted(quoted - set(ENGLISH.texts)) == []


def test_every_card_kind_and_action_the_simulator_lists_has_its_word():
    """The page names a card's kind and what a tap of it can do by `sim.kind_<kind>` and
    `sim.action_<action>`: every kind of both games' cards, every action of both engines and
    the set-up's own (firmware/web/views.py), so none shows as its English id."""
    from engine.arcana.actions import SHAPES
    from engine.arcana.catalog import KINDS, load_catalog
    from engine.arcana.catalogs import __file__ as catalogs_init
    from engine.resarcana import CARDS
    from engine.resarcana.actions import ACTIONS

    sample = load_catalog(Path(catalogs_init).with_name("sample.toml"))
    market = {f"market_{card.kind}" for card in sample.cards.values() if card.is_market}
    kinds = {*KINDS, *market, *(card.kind for card in CARDS.values())}
    actions = {*SHAPES, *(action.kind for action in ACTIONS), "seat", "stake", "task"}
    assert {"artifact", "place", "militia", "market_relic"} <= kinds
    assert {"buy", "bribe", "seat"} <= actions
    for language in (load(code) for code in ("de", "fa")):
        for kind in kinds:
            assert language.text(f"sim.kind_{kind}") != kind
        for action in actions:
            assert language.text(f"sim.action_{action}") != action
    assert ENGLISH.text("sim.kind_place") == "place of power"


def test_every_pairing_role_has_its_word_on_the_phone_pages():
    from firmware.web.pairing import Role

    for role in (Role.owner(), Role("seat", 2), Role.spectator()):
        key = "role.seat" if role.kind == "seat" else f"role.{role.kind}"
        assert ENGLISH.text(key, n=role.seat) == role.label  # English: the screens' label
        assert load("fa").text(key, n=role.seat) != role.label


def test_every_card_kind_effect_and_arcanum_of_a_catalog_has_its_word_on_the_owners_pages():
    from engine.arcana.catalog import ARCANA, EFFECTS, KINDS
    from firmware.web.catalog_progress import BOX

    for kind in {*KINDS, *BOX}:  # the builder's kinds and the progress page's counts
        assert f"catalog.kind_{kind}" in ENGLISH.texts
    phone = source(WEB / "phone.html")
    for kind in KINDS:
        assert f'<option value="{kind}" data-word="catalog.kind_{kind}">' in phone
    for effect in EFFECTS:
        assert f'<option value="{effect}" data-word="catalog.effect_{effect}">' in phone
    for arcanum in ARCANA:
        assert f'<option value="{arcanum}" data-word="catalog.main_{arcanum}">' in phone
    assert "<option>" not in phone  # an option's value never is its (translated) text


# -- the server gives them ------------------------------------------------------------------
def to_language(sim, code: str) -> None:
    """On the game choice: Select down to the language line, OK until `code` shows."""
    for _ in range(3):
        sim.table.press("select")
    while sim.client.get("/api/state")[1]["table"]["language"] != code:
        sim.table.press("ok")


def test_the_words_follow_the_games_language_and_persian_reads_right_to_left(sim):
    status, english = sim.client.get("/api/words")
    assert status == 200 and (english["language"], english["direction"]) == ("en", "ltr")
    assert english["words"]["sim.players"] == "Players"
    to_language(sim, "fa")
    status, persian = sim.client.get("/api/words")  # no language asked: the game's
    assert status == 200
    assert (persian["language"], persian["direction"], persian["name"]) == ("fa", "rtl", "فارسی")
    assert persian["words"]["sim.players"] == "بازیکنان"
    assert persian["words"]["sim.cost"] == "هزینه"  # the Persian rules' word
    assert persian["words"].keys() == english["words"].keys()
    state = sim.client.get("/api/state")[1]
    assert (state["table"]["language"], state["table"]["direction"]) == ("fa", "rtl")
    legend = {entry["icon"]: entry["means"] for entry in state["legend"]}
    assert legend["fire"] == "شعله: آتش (جوهر)"
    german = sim.client.get("/api/words?language=de")[1]
    assert german["words"]["sim.hand_of"] == "Hand von {name} (Platz {n})"


def test_a_language_without_a_catalog_is_refused_with_those_there_are(sim):
    for asked in ("xx", "../en", "e n"):
        status, answer = sim.client.get(f"/api/words?language={asked.replace(' ', '%20')}")
        assert status == 400
        assert "the table has en, de, fa" in answer["error"]


@pytest.mark.parametrize("code", ["de", "fa"])
def test_a_refusal_of_the_page_is_said_in_the_games_language(sim, code):
    to_language(sim, code)
    status, answer = sim.client.post("/api/new-game")
    assert status == 409
    assert answer["error"] == load(code).text("sim.finish_first")


def test_an_undo_is_answered_in_the_games_language(sim):
    from firmware.controllers import resarcana

    to_language(sim, "fa")
    sim.table.press("select")  # back to the first game, where a bot's set-up starts
    bot = resarcana.Bot(3, 2)
    sim.table.set_up("res-arcana", 2, seed=3)
    for step in bot.next_steps(sim.table.top.companion.controller.state):
        sim.table.top.perform(step)
    status, answer = sim.client.post("/api/button", {"name": "undo"})
    assert status == 200 and answer["ok"]
    assert answer["notice"].startswith(load("fa").text("notice.undone") + ": ")  # واگرد


def test_the_phones_pages_get_the_words_of_the_table_before_pairing(tmp_path):
    from web_table import Phone, WebTable

    with WebTable(tmp_path) as table:
        phone = Phone(table.url)  # not paired: the pairing page must still speak
        status, answer = phone.get("api/words?language=fa")
        assert status == 200 and answer["direction"] == "rtl"
        assert answer["words"]["phone.pair"] == "جفت کن"
        assert phone.get("api/words")[1]["language"] == "en"
        assert phone.get("page/words.js")[0] == 200
        assert phone.get("api/state")[0] == 401  # the table itself stays closed


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_servers_refusals_are_said_in_the_games_language(sim, code):
    language = load(code)
    status, answer = sim.client.post("/api/tap", {"pad": "nowhere", "card": "seer_orb"})
    assert answer["error"].startswith("There is no pad 'nowhere' on this table")  # English first
    to_language(sim, code)
    status, answer = sim.client.post("/api/tap", {"pad": "nowhere", "card": "seer_orb"})
    pads = ", ".join(sim.table.pads)
    said = language.text("web_refusal.no_pad", pad="'nowhere'", pads=pads)
    assert (status, answer) == (400, {"error": said})
    status, answer = sim.client.post("/api/button", {})
    assert (status, answer) == (
        400,
        {"error": language.text("web_refusal.body_lacks", fields="name")},
    )
    status, answer = sim.client.get("/api/screens/status.png?scale=99")
    assert (status, answer["error"]) == (400, language.text("web_refusal.scale", most=8))
    status, answer = sim.client.get("/api/nothing")
    assert (status, answer["error"]) == (
        404,
        language.text("web_refusal.nothing_at", path="/api/nothing"),
    )
    status, answer = sim.client.get("/api/state?seat=5")
    assert answer["error"] == language.text("web_refusal.no_seat_yet", seat="'5'")


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_sites_own_answers_follow_the_games_language(make_sim, code):
    """Too many connections, not HTTP: answered before there is a request, in the language
    the last request left the game in (firmware/sim/server.py, Worker.language)."""
    sim = make_sim(max_connections=1)
    english = load("en").text("web_refusal.too_many_connections")

    def busy() -> tuple[int, dict]:
        with sim.connect() as held:
            held.sendall(f"GET /api/state HTTP/1.1\r\nHost: {sim.host}\r\n".encode())
            with sim.connect() as extra:
                answer = sim.read(extra)
        return answer.status, answer.json()

    assert busy() == (503, {"error": english})
    to_language(sim, code)
    assert busy() == (503, {"error": load(code).text("web_refusal.too_many_connections")})
    with sim.connect() as sock:
        sock.sendall(b"NOT-HTTP\r\n\r\n")
        answer = sim.read(sock)
    start = load(code).text("web_refusal.not_http", reason="@").partition("@")[0]
    assert answer.status == 400 and start and answer.json()["error"].startswith(start)


def test_the_state_names_players_and_market_cards_as_the_screens_do(sim):
    """`players[].shown` and `view.stakes[].market_shown` are the names in the game's
    language; `name`, `market_name` and the record keep the record's (English) ones."""
    from firmware.controllers.arcana.screens import card_name, player_name

    to_language(sim, "de")
    sim.table.press("select")  # back to Arcana
    sim.table.set_up("arcana", 3, seed=5)
    state = sim.client.get("/api/state")[1]
    rules = sim.table.top.companion.controller.state
    with using_language("de"):
        shown = [player_name(rules, seat) for seat in range(3)]
        markets = [card_name(rules, stake["market"]) for stake in state["view"]["stakes"]]
    assert [p["shown"] for p in state["players"]] == shown
    assert set(shown) <= {"Klingen", "Fährleute", "Diebe", "Wucherer"}
    assert {p["name"] for p in state["players"]} <= {"Blades", "Ferrymen", "Thieves", "Usurers"}
    assert [s["market_shown"] for s in state["view"]["stakes"]] == markets
    assert all(m.startswith("Beispiel-") for m in markets), markets
    assert all(s["market_name"].startswith("Sample ") for s in state["view"]["stakes"])


def test_a_res_arcana_seat_is_shown_by_its_mages_persian_name(sim):
    from engine.resarcana import CARDS

    to_language(sim, "fa")
    sim.table.press("select")
    sim.table.set_up("res-arcana", 2, seed=3)
    players = sim.client.get("/api/state")[1]["players"]
    fa = load("fa")
    for player in players:
        mage = next(c for c, card in CARDS.items() if card.name == player["name"])
        assert player["shown"] == fa.res_arcana_cards[mage] != player["name"]
