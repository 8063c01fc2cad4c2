"""Setup [4]: each way a record's setup can be wrong is refused with its whole sentence, and the
defaults of a good one (basic variant, no militia deck, the game-end card's place)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.arcana import random_setup
from engine.arcana.catalog import load_catalog
from engine.arcana.setup import deal_piles, initial_state
from engine.records import RecordError

CATALOG = load_catalog("sample")
GUILDS = "blades, ferrymen, thieves, usurers"


def good(variant: str = "advanced") -> dict[str, Any]:
    return random_setup(random.Random(1), 2, variant)


def changed(variant: str = "advanced", **changes: Any) -> dict[str, Any]:
    return {**good(variant), **changes}


def first_task() -> str:
    return good()["tasks"][0][0]


BAD = [
    (lambda: [], "the setup must be an object"),
    (lambda: changed(catalog=3), 'setup needs "catalog": "sample" or a catalog object'),
    (lambda: changed(variant="grand"), 'unknown variant \'grand\' (use "basic" or "advanced")'),
    (
        lambda: changed(players=[{"name": "Ann", "guild": "blades"}]),
        '"players" must list 2 to 4 players as {"name": ..., "guild": ...}',
    ),
    (
        lambda: changed(players=[{"name": "Ann", "guild": "blades"}, {"guild": "thieves"}]),
        'player 1 needs a "name" and a "guild"',
    ),
    (
        lambda: changed(players=[{"name": "Ann", "guild": "blades"}, "Ben"]),
        'player 1 needs a "name" and a "guild"',
    ),
    (
        lambda: changed(
            players=[{"name": "Ann", "guild": "elves"}, {"name": "B", "guild": "blades"}]
        ),
        f"player 0: unknown guild 'elves' (known: {GUILDS})",
    ),
    (
        lambda: changed(players=[{"name": "Ann", "guild": "blades"}, {"name": "B", "guild": 7}]),
        f"player 1: unknown guild 7 (known: {GUILDS})",
    ),
    (lambda: changed(start_player=2), '"start_player" must be a seat number 0..1'),
    (lambda: changed(start_player=True), '"start_player" must be a seat number 0..1'),
    (lambda: changed(start_player="0"), '"start_player" must be a seat number 0..1'),
    (
        lambda: changed(stakes=[*good()["stakes"][:-1], "no_card"]),
        f"stake {len(good()['stakes']) - 1}: unknown card 'no_card'",
    ),
    (lambda: changed(stakes=[5, *good()["stakes"][1:]]), "stake 0: unknown card 5"),
    (
        lambda: changed(stakes=[good()["stakes"][0], *good()["stakes"][:-1]]),
        '"stakes" names a market card twice',
    ),
    (
        lambda: changed("basic", tasks=[["task_01", "task_02"], ["task_03", "task_04"]]),
        '"tasks" belong to the advanced variant',
    ),
    (
        lambda: changed(tasks=[["task_01", "task_02"]]),
        'the advanced variant needs "tasks": 2 task cards per player',
    ),
    (
        lambda: changed(tasks="task_01"),
        'the advanced variant needs "tasks": 2 task cards per player',
    ),
    (
        lambda: changed(tasks=[["task_01", "task_02"], "task_03"]),
        "player 1 keeps exactly 2 task cards",
    ),
    (
        lambda: changed(tasks=[["task_01"], ["task_03", "task_04"]]),
        "player 0 keeps exactly 2 task cards",
    ),
    (
        lambda: changed(tasks=[["task_01", "task_02"], ["task_03", "no_task"]]),
        "player 1: unknown task 'no_task'",
    ),
    (lambda: changed(tasks=[["task_01", 9], ["task_03", "task_04"]]), "player 0: unknown task 9"),
    (
        lambda: changed(tasks=[["task_01", "m_agent_01"], ["task_03", "task_04"]]),
        'player 0: "m_agent_01" is not a task card',
    ),
]


@pytest.mark.parametrize(("make", "sentence"), BAD, ids=[s for _, s in BAD])
def test_a_bad_setup_is_refused_with_its_whole_sentence(make, sentence) -> None:
    with pytest.raises(RecordError) as raised:
        initial_state(make())
    assert str(raised.value) == sentence


def test_a_setup_without_a_variant_is_a_basic_game_without_militia() -> None:
    setup = {k: v for k, v in good("basic").items() if k != "variant"}
    state = initial_state(setup)
    assert state.variant == "basic"
    assert state.militia_deck == ()
    assert state.ending is False
    advanced = initial_state(good())
    assert advanced.variant == "advanced" and advanced.militia_deck == CATALOG.militia
    assert advanced.ending is False


def test_the_game_end_card_lies_among_the_last_five_of_the_free_trade_pile() -> None:
    places = set()
    for seed in range(300):
        last = deal_piles(random.Random(seed), CATALOG, 2)[-1]
        places.add(len(last) - last.index(CATALOG.game_end))
    assert places == {1, 2, 3, 4, 5}


def _with_tasks(test_catalog, count: int) -> dict[str, Any]:
    catalog = test_catalog()
    keep = {f"task_{n:02d}" for n in range(1, count + 1)}
    cards = [c for c in catalog["cards"] if c["kind"] != "task" or c["id"] in keep]
    return {**catalog, "cards": cards}


def test_a_catalog_needs_four_tasks_a_player_to_deal_them(setup_for, test_catalog) -> None:
    """Each player is dealt 4 tasks and keeps 2: 8 tasks deal 2 players, not 3."""
    eight = _with_tasks(test_catalog, 8)
    assert initial_state(setup_for(2, variant="advanced", catalog=eight)).tasks == (
        ("task_01", "task_02"),
        ("task_03", "task_04"),
    )
    with pytest.raises(RecordError) as raised:
        initial_state(setup_for(3, variant="advanced", catalog=eight))
    assert str(raised.value) == "the catalog has 8 tasks, too few to deal 3"
