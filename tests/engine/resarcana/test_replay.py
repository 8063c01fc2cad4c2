"""`arcana-table replay` on Res Arcana records, end to end through the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.records import RecordError, dumps, load, replay
from engine.resarcana import RULES, physical_setup
from engine.resarcana.scenario import deal, finished_game


def run_replay(path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", "replay", str(path)], capture_output=True, text=True
    )


def record_of(game: dict, setup: dict | None = None) -> str:
    lines = [RULES.encode_action(a) for a in game["moves"]]
    return dumps("res-arcana", setup or game["setup"], lines)


@pytest.fixture(scope="module")
def game():
    return finished_game(11, 3)


def test_a_full_game_replays_to_its_result(tmp_path, game):
    path = tmp_path / "game.jsonl"
    path.write_text(record_of(game))
    done = run_replay(path)
    assert (done.returncode, done.stderr) == (0, "")
    result = json.loads(done.stdout)
    assert result == RULES.result(game["state"])
    assert list(result) == ["game", "round", "finished", "winners", "players"]
    assert result["finished"] is True and result["game"] == "res-arcana"
    assert list(result["players"][0]) == [
        "name",
        "vp",
        "essences",
        "hand",
        "hand_size",
        "deck",
        "tableau",
    ]
    assert list(result["players"][0]["essences"]) == ["fire", "life", "calm", "death", "gold"]
    for player in result["players"]:
        assert player["tableau"] == sorted(player["tableau"])


def test_an_unfinished_game_has_no_winners(tmp_path, game):
    path = tmp_path / "half.jsonl"
    half = dict(game, moves=game["moves"][:10])
    path.write_text(record_of(half))
    result = json.loads(run_replay(path).stdout)
    assert "winners" not in result and result["finished"] is False
    assert result["round"] >= 1


def test_the_spec_example_game_replays(tmp_path):
    setup = {
        "players": ["Ann", "Ben"],
        "start_player": 0,
        "mages": ["fire_mage", "shadow_priest"],
        "hands": [
            ["seer_orb", "trade_ring", "brazier"],
            ["mirror_of_calm", "secret_key", "black_skull"],
        ],
        "decks": [
            ["dragon_heart", "small_flame", "ice_flower"],
            ["bag_of_gold", "death_bell", "stone_armor"],
        ],
        "monuments": [
            "monument_4",
            "monument_1",
            "monument_6",
            "monument_2",
            "monument_3",
            "monument_5",
        ],
    }
    lines = [
        {"player": 0, "action": "discard", "card": "brazier", "gain": {"calm": 2}},
        {"player": 1, "action": "play", "card": "black_skull"},
        {"player": 0, "action": "play", "card": "seer_orb"},
        {"player": 1, "action": "pass"},
        {"player": 0, "action": "discard", "card": "trade_ring", "gain": {"gold": 1}},
        {"player": 0, "action": "pass"},
    ]
    path = tmp_path / "spec.jsonl"
    path.write_text(dumps("res-arcana", setup, lines))
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "game": "res-arcana",
        "round": 2,
        "finished": False,
        "players": [
            {
                "name": "Ann",
                "vp": 0,
                # 1 each + 2 calm - 2 calm (orb) + 1 gold; then fire mage 1 fire 1 life, orb 1 calm
                "essences": {"fire": 2, "life": 2, "calm": 2, "death": 1, "gold": 2},
                "hand": ["dragon_heart"],
                "hand_size": 1,
                "deck": 2,
                "tableau": ["seer_orb"],
            },
            {
                "name": "Ben",
                "vp": 0,
                # 1 each - 1 death (skull); then shadow priest 1 death 1 gold, skull 1 death
                "essences": {"fire": 1, "life": 1, "calm": 1, "death": 2, "gold": 2},
                "hand": ["bag_of_gold", "mirror_of_calm", "secret_key"],
                "hand_size": 3,
                "deck": 2,
                "tableau": ["black_skull"],
            },
        ],
    }


HEADER = json.dumps(
    {
        "format": "arcana-table/record",
        "version": 1,
        "game": "res-arcana",
        "setup": deal(hands=[["seer_orb", "trade_ring", "brazier"]]),
    }
)

BAD_LINES = [
    ("not json", "{player: 0}", "not valid JSON"),
    ("not an object", '[0, "pass"]', "expected a JSON object"),
    ("no player", '{"action": "pass"}', 'an action needs "player": the seat index (0, 1, ...)'),
    (
        "player as text",
        '{"player": "0", "action": "pass"}',
        'an action needs "player": the seat index (0, 1, ...)',
    ),
    (
        "unknown action",
        '{"player": 0, "action": "steal", "card": "seer_orb"}',
        'unknown action \'steal\' (expected "play", "activate", "buy", "discard" or "pass")',
    ),
    ("no card", '{"player": 0, "action": "play"}', 'a "play" action needs "card": a card id'),
    (
        "unknown card",
        '{"player": 0, "action": "play", "card": "magic_carpet"}',
        'unknown card "magic_carpet"',
    ),
    (
        "no gain",
        '{"player": 0, "action": "discard", "card": "brazier"}',
        'a discard needs "gain": {"gold": 1} or 2 of one other essence, such as {"calm": 2}',
    ),
    (
        "gold 2",
        '{"player": 0, "action": "discard", "card": "brazier", "gain": {"gold": 2}}',
        'a discard needs "gain": {"gold": 1} or 2 of one other essence, such as {"calm": 2}',
    ),
    (
        "two kinds",
        '{"player": 0, "action": "discard", "card": "brazier", "gain": {"calm": 1, "fire": 1}}',
        'a discard needs "gain": {"gold": 1} or 2 of one other essence, such as {"calm": 2}',
    ),
    ("passed already", '{"player": 1, "action": "pass"}', "Ben has passed this round."),
    ("no such player", '{"player": 7, "action": "pass"}', "There is no player 7 at this table."),
    (
        "cannot afford",
        '{"player": 0, "action": "play", "card": "seer_orb"}',
        "Seer's Orb needs 2 calm, you have 1.",
    ),
    (
        "not in hand",
        '{"player": 0, "action": "play", "card": "dragon_heart"}',
        "Dragon Heart is not in Ann's hand.",
    ),
    (
        "place as artifact",
        '{"player": 0, "action": "play", "card": "gold_mine"}',
        "Gold Mine is a place of power; only artifacts are played or discarded from hand.",
    ),
    (
        "hidden monument",
        '{"player": 0, "action": "buy", "card": "monument_5"}',
        "Monument 5 is not face up.",
    ),
    (
        "negative player",
        '{"player": -1, "action": "pass"}',
        'an action needs "player": the seat index (0, 1, ...)',
    ),
]


@pytest.mark.parametrize(
    ("text", "reason"), [b[1:] for b in BAD_LINES], ids=[b[0] for b in BAD_LINES]
)
def test_a_bad_line_is_refused_with_its_number_and_reason(text, reason):
    with pytest.raises(RecordError) as err:
        load(
            [
                HEADER,
                '{"player": 0, "action": "discard", "card": "brazier", "gain": {"gold": 1}}',
                '{"player": 1, "action": "pass"}',
                "",
                text,
            ]
        )
    assert err.value.line == 5
    if reason.startswith("not valid JSON"):  # then the JSON parser's own words
        assert err.value.reason.startswith(reason + " (")
    else:
        assert err.value.reason == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{player: 0}", "not valid JSON"),
        ('{"player": 1, "action": "pass"}', "It is Ann's turn, not Ben's."),
        ('{"player": 0, "action": "play", "card": "seer_orb"}', "Seer's Orb needs 2 calm"),
        ('{"player": 0, "action": "play", "card": "magic_carpet"}', "unknown card"),
    ],
)
def test_the_command_refuses_a_bad_line_with_exit_2_and_nothing_on_stdout(tmp_path, text, reason):
    path = tmp_path / "bad.jsonl"
    path.write_text(HEADER + "\n" + text + "\n")
    done = run_replay(path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("line 2: ") and reason in done.stderr


def test_the_command_refuses_a_bad_setup_on_line_1(tmp_path):
    setup = deal()
    setup["hands"][0][0] = setup["hands"][1][0]
    path = tmp_path / "dup.jsonl"
    path.write_text(dumps("res-arcana", setup, []))
    done = run_replay(path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("line 1: ") and "appears twice" in done.stderr


def test_a_physical_play_record_replays(tmp_path):
    game = finished_game(4, 2)
    path = tmp_path / "table.jsonl"
    path.write_text(record_of(game, physical_setup(game["setup"])))
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    known = RULES.result(game["state"])
    assert all(p["hand"] == [] for p in result["players"])
    for seen, full in zip(result["players"], known["players"], strict=True):
        assert {k: seen[k] for k in ("vp", "essences", "hand_size", "deck", "tableau")} == {
            k: full[k] for k in ("vp", "essences", "hand_size", "deck", "tableau")
        }
    assert (result["winners"], result["round"]) == (known["winners"], known["round"])


def test_replay_in_process_matches(game):
    assert replay(record_of(game).splitlines()) == RULES.result(game["state"])


def test_a_decoded_action_is_the_one_the_rules_list():
    # Decoding hands out the precomputed actions that `legal_actions` lists (applying one is
    # then a few look-ups), not equal copies.
    state = RULES.setup(deal(hands=[["seer_orb", "trade_ring", "brazier"]]))
    legal = RULES.legal_actions(state)
    lines = [
        {"player": 0, "action": "pass"},
        {"player": 0, "action": "discard", "card": "brazier", "gain": {"calm": 2}},
    ]
    for line in lines:
        decoded = RULES.decode_action(line)
        assert any(decoded is action for action in legal), line
