"""The demo bot plays whole games through the emulated table: every action a tap or a
press, the companion's journal replays to the same result, the ranking shares equal VP, and a
game survives a power cut mid-way."""

from __future__ import annotations

import pytest

from engine.records import load
from engine.resarcana import RULES, Position
from firmware.controllers.resarcana import Bot, play_demo_game
from firmware.controllers.resarcana.bot import choose
from firmware.controllers.resarcana.screens import Prompt, table_screens
from firmware.games import GameShelf
from firmware.screens import Essences, RankedPlayer, RankingScreen, SeatScreen, render
from firmware.steps import Step
from firmware.tabletop import EmulatedTable

PADS = ("stake-0", "stake-1", "stake-2", "stake-3")


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def replayed(journal, game_id):
    """The game's state rebuilt from its journal alone (its exported record, replayed)."""
    _, state, _ = load(journal.record(game_id).splitlines())
    return state


def expected_ranking(result) -> RankingScreen:
    vps = [p["vp"] for p in result["players"]]
    ranks = [1 + sum(other > vp for other in vps) for vp in vps]
    order = sorted(range(len(vps)), key=lambda q: (ranks[q], q))
    names = [p["name"] for p in result["players"]]
    return RankingScreen(tuple(RankedPlayer(ranks[q], names[q], vps[q]) for q in order))


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 5), (4, 0)])
def test_the_bot_plays_a_whole_game_through_taps_and_presses(tmp_path, players, seed):
    bot = Bot(seed, players)
    steps: list[Step] = []
    with EmulatedTable(tmp_path, GameShelf()) as top:
        result = play_demo_game(top, bot, after_step=steps.append)
        game_id = top.companion.game_id
        assert result["finished"] and result == RULES.result(bot.state)
        assert top.journal.games()[-1].result == result  # journalled as finished
        assert RULES.result(replayed(top.journal, game_id)) == result
        screens = top.screens()
        assert same(screens["status"], render(expected_ranking(result)))
        for seat, player in enumerate(result["players"]):
            essences = player["essences"]
            final = SeatScreen(player["name"], Essences(**essences), player["vp"])
            assert same(screens[PADS[seat]], render(final))
        verbs = {line["action"] for line in top.journal.lines(game_id)}
    assert verbs == {"play", "activate", "buy", "discard", "pass"}
    assert {s.kind for s in steps} == {"tap", "press"}
    assert all(s.target in PADS[:players] for s in steps if s.kind == "tap")


def test_equal_vp_share_the_first_rank():
    for seed in range(40):  # the first deal whose game ends on equal top VP
        state = Bot(seed, 4).state
        while not Position(state).finished:
            state = RULES.apply(state, choose(state)).state
        result = RULES.result(state)
        if len(result["winners"]) > 1:
            break
    ranking = expected_ranking(result)
    assert [p.rank for p in ranking.players].count(1) == len(result["winners"]) > 1
    assert table_screens(state, Prompt(), None)[0] == ranking


def test_a_game_resumes_after_a_power_cut_with_the_same_screens(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        for step in bot.setup_steps():
            top.perform(step)
        for _ in range(12):
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        top.wait(4)  # let any notice expire: a resumed table shows none
        before = top.screens()
        state = top.companion.controller.state
        lines = top.journal.lines(top.companion.game_id)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        assert top.companion.controller.state == state
        assert top.journal.lines(top.companion.game_id) == lines
        after = top.screens()
        assert all(same(after[role], image) for role, image in before.items())
        result = play_demo_game(top, bot)
        assert result["finished"]
        assert len(top.journal.lines(top.companion.game_id)) > len(lines)


def test_the_bot_follows_undo_and_redo_at_the_table(tmp_path):
    bot = Bot(1, 2)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        for step in bot.setup_steps():
            top.perform(step)
        for _ in range(6):
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        top.press("undo")
        top.press("undo")
        top.press("undo", held=True)
        steps = bot.next_steps(top.companion.controller.state)
        assert bot.at == 6  # it went on from the 5th action, where the table is
        for step in steps:
            top.perform(step)
        result = play_demo_game(top, bot)
        assert result == RULES.result(bot.state) and result["finished"]


def test_the_bot_notices_a_table_that_went_another_way(duel):
    bot = Bot(1, 2)
    duel.press("ok")  # a pass the bot never chose
    with pytest.raises(RuntimeError, match="disagree"):
        bot.next_steps(duel.companion.controller.state)


def test_a_bot_deal_is_the_same_for_the_same_seed_and_seats_in_pad_order():
    one, again = Bot(9, 3), Bot(9, 3)
    assert one.deal == again.deal
    assert one.deal["start_player"] == 0
    assert one.setup_steps() == again.setup_steps()
    taps = [s for s in one.setup_steps() if s.kind == "tap"]
    assert [(s.target, s.card) for s in taps] == list(zip(PADS, one.deal["mages"], strict=False))
    assert Position(one.state).current == 0
