"""Setup objects of records: explicit deals, physical play, and every mistake refused."""

from __future__ import annotations

import copy
import random

import pytest

from engine.records import RecordError
from engine.resarcana import RULES, Position, physical_setup, random_setup
from engine.resarcana.scenario import deal


def test_an_explicit_deal_gives_hands_decks_and_monuments():
    setup = deal(
        hands=[["seer_orb", "trade_ring", "brazier"]],
        decks=[["dragon_heart", "black_skull", "ice_flower"]],
        monuments=[f"monument_{n}" for n in (4, 1, 6, 2, 3, 5)],
    )
    look = Position(RULES.setup(setup))
    assert look.hand(0) == ["brazier", "seer_orb", "trade_ring"]
    assert look.deck(0) == ["dragon_heart", "black_skull", "ice_flower"]
    assert look.monuments_face_up() == ["monument_1", "monument_4"]
    assert look.deal.names == ("Ann", "Ben")


def test_physical_play_leaves_out_hands_decks_and_monuments():
    setup = physical_setup(random_setup(random.Random(3), 3))
    assert set(setup) == {"players", "start_player", "mages"}
    look = Position(RULES.setup(setup))
    assert [look.hand_size(q) for q in range(3)] == [3, 3, 3]
    assert [look.deck_size(q) for q in range(3)] == [3, 3, 3]
    assert look.hand(0) == [] and look.monuments_face_up() == 2


def test_monuments_may_be_known_while_hands_are_not():
    setup = physical_setup(random_setup(random.Random(3), 2), monuments_known=True)
    look = Position(RULES.setup(setup))
    assert not look.deal.hands_known
    assert look.monuments_face_up() == sorted(setup["monuments"][:2])


def good() -> dict:
    return deal()


def broken(change) -> dict:
    setup = copy.deepcopy(good())
    change(setup)
    return setup


def _set(key, value):
    return lambda s: s.__setitem__(key, value)


MISTAKES = [
    (
        "unknown artifact",
        lambda s: s["hands"][0].__setitem__(0, "magic_carpet"),
        "unknown card 'magic_carpet'",
    ),
    ("unknown mage", lambda s: s["mages"].__setitem__(0, "witch"), "unknown card 'witch'"),
    (
        "unknown monument",
        lambda s: s["monuments"].__setitem__(0, "monument_9"),
        "unknown card 'monument_9'",
    ),
    (
        "a place as a mage",
        lambda s: s["mages"].__setitem__(0, "gold_mine"),
        '"gold_mine" is not a mage',
    ),
    (
        "a mage in a hand",
        lambda s: s["hands"][0].__setitem__(0, "fire_mage"),
        '"fire_mage" is not an artifact',
    ),
    (
        "duplicate artifact",
        lambda s: s["decks"][1].__setitem__(0, s["hands"][0][0]),
        "'chalice_of_life' appears twice among the artifacts dealt",
    ),
    (
        "duplicate mage",
        lambda s: s["mages"].__setitem__(1, s["mages"][0]),
        "'fire_mage' appears twice among the mages",
    ),
    (
        "duplicate monument",
        lambda s: s["monuments"].__setitem__(1, s["monuments"][0]),
        "'monument_1' appears twice among the monuments",
    ),
    (
        "duplicate name",
        _set("players", ["Ann", "Ann"]),
        "'Ann' appears twice among the player names",
    ),
    ("one player", _set("players", ["Ann"]), 'setup needs "players": a list of 2 to 4 names'),
    (
        "five players",
        _set("players", ["A", "B", "C", "D", "E"]),
        'setup needs "players": a list of 2 to 4 names',
    ),
    ("empty name", _set("players", ["Ann", " "]), "every player needs a name (a non-empty string)"),
    ("no players", lambda s: s.pop("players"), 'setup needs "players": a list of 2 to 4 names'),
    (
        "two cards in hand",
        lambda s: s["hands"][0].pop(),
        '"hands" of player 0 must list 3 artifacts',
    ),
    (
        "four cards in deck",
        lambda s: s["decks"][1].append("seer_orb"),
        '"decks" of player 1 must list 3 artifacts',
    ),
    ("hands of one player", lambda s: s["hands"].pop(), '"hands" needs one list per player (2)'),
    (
        "hands without decks",
        lambda s: s.pop("decks"),
        'give both "hands" and "decks", or neither (physical play)',
    ),
    (
        "five monuments",
        lambda s: s["monuments"].pop(),
        'setup needs "monuments": a list of 6 monument ids (all six)',
    ),
    (
        "one mage",
        lambda s: s["mages"].pop(),
        'setup needs "mages": a list of 2 mage ids (one mage per player)',
    ),
    (
        "start player out of range",
        _set("start_player", 2),
        'setup needs "start_player": a seat index from 0 to 1',
    ),
    (
        "start player missing",
        lambda s: s.pop("start_player"),
        'setup needs "start_player": a seat index from 0 to 1',
    ),
    (
        "start player a bool",
        _set("start_player", True),
        'setup needs "start_player": a seat index from 0 to 1',
    ),
    ("hands not a list", _set("hands", "seer_orb"), '"hands" needs one list per player (2)'),
    ("decks of one player", lambda s: s["decks"].pop(), '"decks" needs one list per player (2)'),
    (
        "a place as a monument",
        lambda s: s["monuments"].__setitem__(0, "gold_mine"),
        '"gold_mine" is not a monument',
    ),
    (
        "start player of three out of range",
        lambda s: s.update(
            players=["Ann", "Ben", "Cid"],
            mages=s["mages"] + ["forest_healer"],
            hands=s["hands"] + [["seer_orb", "crown_of_thorns", "eternal_lamp"]],
            decks=s["decks"] + [["ice_flower", "secret_key", "dragon_heart"]],
            start_player=3,
        ),
        'setup needs "start_player": a seat index from 0 to 2',
    ),
]


@pytest.mark.parametrize(
    ("change", "reason"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES]
)
def test_a_bad_setup_is_refused_with_a_reason(change, reason):
    with pytest.raises(RecordError) as err:
        RULES.setup(broken(change))
    assert err.value.reason == reason


def test_the_good_setup_used_above_is_accepted():
    assert Position(RULES.setup(good())).players == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_setups_are_valid_records(players):
    for seed in range(20):
        RULES.setup(random_setup(random.Random(seed), players))


def test_random_setup_is_deterministic_per_seed():
    assert random_setup(random.Random(9), 4) == random_setup(random.Random(9), 4)
    assert random_setup(random.Random(9), 4) != random_setup(random.Random(10), 4)


def test_the_setup_of_three_players_used_above_is_accepted_with_a_good_start_player():
    setup = broken(MISTAKES[-1][1])
    setup["start_player"] = 2
    look = Position(RULES.setup(setup))
    assert (look.players, look.current) == (3, 2)


def test_random_setup_takes_the_names_given_or_numbers_the_players():
    assert random_setup(random.Random(1), 3)["players"] == ["Player 1", "Player 2", "Player 3"]
    named = random_setup(random.Random(1), 2, ("Ann", "Ben"))
    assert named["players"] == ["Ann", "Ben"]
    with pytest.raises(ValueError) as err:
        random_setup(random.Random(1), 5)
    assert str(err.value) == "Res Arcana is played by 2 to 4 players"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_setup_the_start_player_is_any_seat(players):
    starts = {random_setup(random.Random(seed), players)["start_player"] for seed in range(40)}
    assert starts == set(range(players))


def test_random_setup_deals_any_mage_artifact_and_monument_order():
    setups = [random_setup(random.Random(seed), 2) for seed in range(40)]
    assert {s["mages"][0] for s in setups} == {
        "fire_mage",
        "forest_healer",
        "shadow_priest",
        "master_of_calm",
    }
    first_in_hand = {s["hands"][0][0] for s in setups}
    assert len(first_in_hand) >= 12  # of 24 artifacts, over 40 shuffles
    assert len({tuple(s["monuments"][:2]) for s in setups}) >= 10
