"""One test (at least) per numbered section of ../shared/rules/arcana-house-rules.md, plus the
German text's worked example. The test catalog (conftest) has plain values: guild agents 1 in
every arcanum, market agents need political 3 and cost financial 4 to bribe.

Two players unless said otherwise: Ann (blades, seat 0) controls stakes 0 and 1, Ben
(ferrymen, seat 1) controls 2 and 3, stake 4 is the free-trade stake.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.arcana import RULES, load_catalog, pending, state_from_json, state_to_json
from engine.arcana.state import controllers
from engine.records import RecordError

TWO_POLITICAL = {"blades_agent_2": {"arcana": {"political": 2}}}
# stake 4 (free trade) shows m_agent_02 (fief temple); stakes 0-3 need political 20: unwinnable
HOPELESS = {f"m_agent_{n:02d}": {"arcana": {"political": 20}} for n in (1, 3, 4, 5)}


def german_example(g, reveal: bool = True):
    """Round 1: Ann wins stake 4 (political 3) with two agents of political 1 and 2."""
    events = g.play(
        {0: [("agent", "blades_agent_1", {"stake": 4}), ("agent", "blades_agent_2", {"stake": 4})]}
    )
    if reveal:
        events += g.do(None, "reveal", "m_agent_20", stake=4)
    return events


def edited(g, **changes):
    """The game's state with some counts changed (what a long game would have reached)."""
    data = state_to_json(g.state)
    for key, value in changes.items():
        if key == "piles":
            for stake, pile in value.items():
                data["stakes"][stake]["pile"] = pile
        else:
            data[key] = value
    g.state = state_from_json(data)


def test_the_german_worked_example_political_3_won_with_agents_of_1_and_2(game):
    g = game(changes=TWO_POLITICAL)
    events = german_example(g, reveal=False)
    (struggle,) = [e for e in events if e.kind == "stake_evaluated" and e.stake == 4]
    assert (struggle.arcanum, struggle.threshold, struggle.strengths) == ("political", 3, (3, 0))
    assert struggle.winner == 0 and struggle.won == ("m_agent_05",)
    assert struggle.sent_home == (("blades_agent_1", "blades_agent_2"), ())
    assert "m_agent_05" in g.result["players"][0]["owned"]
    assert g.result["players"][0]["vp"] == 3
    assert pending(g.state).kind == "reveal" and pending(g.state).stake == 4


def test_rule_1_cards_kinds_values_and_conquered_cards_play_as_their_kind(game):
    sample = load_catalog("sample")
    cards = list(sample.cards.values())
    assert Counter(c.kind for c in cards if not c.guild and not c.is_market) == {
        "game_end": 1,
        "militia": 6,
        "task": 22,
    }
    assert len([c for c in cards if c.guild]) == 48
    market = [c for c in cards if c.is_market]
    assert len(market) == 85
    assert Counter((c.kind, c.vp) for c in market)[("relic", 1)] == 24
    assert {c.vp for c in market if c.kind == "agent"} == {3}
    assert {c.vp for c in market if c.kind == "location"} == {5}
    assert all(c.threshold == c.arcana[c.main] >= 1 for c in market)
    g = game(changes=TWO_POLITICAL)
    german_example(g)
    # round 2: the conquered market agent is placed like any agent
    events = g.play({0: [("agent", "m_agent_05", {"stake": 0})]})
    (zero,) = [e for e in events if e.kind == "stake_evaluated" and e.stake == 0]
    assert zero.strengths == (3, 0) and zero.turned_face_up == ((0, "m_agent_05"),)
    assert zero.winner == 0 and zero.sent_home == (("m_agent_05",), ())


@pytest.mark.parametrize(("ferrymen_tie", "winner"), [(None, 1), ("military", None)])
def test_rule_2_each_guild_wins_ties_in_its_arcanum_and_the_catalog_may_change_it(
    game, test_catalog, ferrymen_tie, winner
):
    catalog = test_catalog()
    if ferrymen_tie:
        catalog["guilds"]["ferrymen"]["tie_arcanum"] = ferrymen_tie
    g = game(catalog=catalog)
    assert g.state.catalog.guilds["blades"].tie_arcanum == "military"
    # both reach political 3 at the free stake: ferrymen win the tie in political by default
    script = {
        p: [("agent", f"{guild}_agent_{n}", {"stake": 4}) for n in (1, 2, 3)]
        for p, guild in enumerate(("blades", "ferrymen"))
    }
    (struggle,) = [e for e in g.play(script) if e.kind == "stake_evaluated" and e.stake == 4]
    assert struggle.strengths == (3, 3) and struggle.tied == (0, 1)
    assert struggle.winner == winner
    assert struggle.tie_break == ("guild" if winner is not None else "unresolved")


@pytest.mark.parametrize(
    ("players", "down_for_seat_0"),
    [(2, {0: True, 1: True, 2: False, 3: False, 4: False}),
     (3, {0: True, 1: False, 2: True, 3: False}),
     (4, {0: True, 1: False, 2: False, 3: True, 4: False})],
)  # fmt: skip
def test_rule_3_stakes_zones_and_face_down_agents_where_a_player_controls(
    game, players, down_for_seat_0
):
    g = game(players=players)
    assert len(g.result["stakes"]) == len(down_for_seat_0)
    free = len(down_for_seat_0) - 1
    assert controllers(players, free) == ()
    for stake in range(free):
        expected = {stake // 2} if players == 2 else {stake, (stake + 1) % players}
        assert set(controllers(players, stake)) == expected
    # seat 0 places one agent per stake (over two rounds); the others discard
    stakes = list(down_for_seat_0)
    for chunk in (stakes[:4], stakes[4:]):
        if chunk:
            g.play({0: [("agent", f"blades_agent_{s + 1}", {"stake": s}) for s in chunk]})
    placed = {e.stake: e.face_down for e in g.of_kind("agent_placed")}
    assert placed == down_for_seat_0


def test_rule_4_setup_possession_stakes_and_start_player(game):
    g = game(players=3, start=2)
    state = g.state
    assert [len(cards) for cards in state.possession] == [11, 11, 11]
    assert "blades_base" not in state.possession[0]
    assert "blades_base" in g.result["players"][0]["owned"]
    assert len(g.result["players"][0]["owned"]) == 12
    assert [s["market"] for s in g.result["stakes"]] == [f"m_agent_0{n}" for n in (1, 2, 3, 4)]
    assert pending(state).player == 2 and state.hand == (4, 4, 4)
    assert state.stakes[3].pile == 12 and state.stakes[0].pile == 11  # + the game-end card


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"players": [{"name": "Ann", "guild": "blades"}]}, "2 to 4 players"),
        ({"start_player": 2}, "start_player"),
        ({"stakes": ["m_agent_01"] * 5}, "twice"),
        ({"stakes": ["m_agent_01"]}, "the 5 market cards"),
        ({"stakes": ["blades_agent_1", "m_agent_02", "m_agent_03", "m_agent_04", "m_agent_05"]},
         "not a market card"),
        ({"variant": "expert"}, "unknown variant"),
        ({"catalog": "no_such_deck"}, "no shipped catalog"),
        ({"players": [{"name": "A", "guild": "blades"}, {"name": "B", "guild": "blades"}]},
         "already taken"),
        ({"tasks": [["task_01", "task_02"], ["task_03", "task_04"]]}, "advanced"),
    ],
)  # fmt: skip
def test_rule_4_a_bad_setup_is_refused_with_its_reason(setup_for, change, reason):
    setup = {**setup_for(), **change}
    with pytest.raises(RecordError, match=reason):
        RULES.setup(setup)


def test_rule_5_rounds_turn_order_start_player_and_hand_sizes(game):
    g = game(players=3, start=1)
    order = []
    while g.state.round == 1:
        p = pending(g.state).player
        order.append(p)
        g.do(p, "discard", g.state.ready[p][0])
    assert order == [1, 2, 0] * 4
    (started,) = g.of_kind("round_started")
    assert (started.round, started.start_player, started.hand_sizes) == (2, 2, (4, 4, 4))
    assert pending(g.state).player == 2


def test_rule_5_a_card_plays_once_per_round_and_returning_cards_wait(game):
    g = game(guilds=("thieves", "ferrymen"))
    g.do(0, "location", "thieves_location")
    assert "thieves_location" in g.state.possession[0]
    g.do(1, "discard", "ferrymen_agent_1")
    assert g.refuse(0, "location", "thieves_location").code == "not_ready"
    assert g.refuse(0, "discard", "ferrymen_agent_2").code == "not_in_possession"
    assert g.refuse(1, "discard", "ferrymen_agent_2").message == "Thieves to play"
    g.do(0, "agent", "thieves_agent_1", stake=2)
    g.do(1, "discard", "ferrymen_agent_2")
    refused = g.refuse(0, "agent", "thieves_agent_1", stake=3)
    assert refused.message == "That agent is already on stake 3"  # stake=2, counted from 1
    g.play({})
    g.play({0: [("location", "thieves_location", {})]})  # next round it plays again


def test_rule_5_players_with_empty_hands_are_skipped(game):
    g = game(changes=HOPELESS)
    for agents in ((1, 2, 3, 4), (5, 6, 7, 8)):  # Ben's agents get stuck on a hopeless stake
        g.play({1: [("agent", f"ferrymen_agent_{n}", {"stake": 2}) for n in agents]})
    assert g.state.round == 3 and g.state.hand == (4, 3)
    order = []
    while g.state.round == 3:
        p = pending(g.state).player
        order.append(p)
        ready = [c for c in g.state.ready[p] if not c.endswith("relic")] or g.state.ready[p]
        g.do(p, "discard", ready[0])
    assert order == [0, 1, 0, 1, 0, 1, 0]


def test_rule_5_no_card_in_any_hand_at_a_round_start_ends_the_game(game):
    g = game(changes=HOPELESS)
    hands = [[f"{guild}_agent_{n}" for n in range(1, 5)] for guild in ("blades", "ferrymen")]
    edited(g, possession=hands, ready=hands)
    g.play({p: [("agent", card, {"stake": p * 2}) for card in hands[p]] for p in (0, 1)})
    result = g.result
    assert result["finished"] and result["round"] == 1
    assert result["winners"] == ["Ann", "Ben"]  # 0 VP each: a shared win
    (ended,) = g.of_kind("game_ended")
    assert ended.reason == "no_cards"
    assert g.state.turn is None  # nobody's turn once the game is over


def test_rule_6_a_won_stake_awaits_its_reveal_and_accepts_only_an_unseen_market_card(game):
    g = game(changes=TWO_POLITICAL)
    german_example(g, reveal=False)
    assert g.refuse(1, "agent", "ferrymen_agent_5", stake=4).code == "awaiting_reveal"
    assert g.refuse(None, "reveal", "m_agent_01", stake=4).code == "bad_reveal"  # on stake 0
    assert g.refuse(None, "reveal", "m_agent_05", stake=4).code == "bad_reveal"  # won already
    assert g.refuse(None, "reveal", "blades_agent_5", stake=4).code == "bad_reveal"
    assert "last 5" in g.refuse(None, "reveal", "game_end", stake=4).message
    assert g.refuse(None, "reveal", "m_agent_20", stake=3).code == "wrong_stake"
    events = g.do(None, "reveal", "m_agent_20", stake=4)
    assert [e.kind for e in events] == ["card_revealed", "round_started"]
    assert g.state.stakes[4].pile == 11 and g.state.stakes[4].market == "m_agent_20"


def test_rule_6_a_refused_reveal_says_why_and_names_stakes_from_1(game):
    g = game(changes=TWO_POLITICAL)
    refused = g.refuse(None, "reveal", "m_agent_20", stake=4)
    assert (refused.code, refused.message) == ("no_reveal", "No stake is waiting for a card")
    german_example(g, reveal=False)
    messages = {
        ("m_agent_20", 3): "Reveal the next card on stake 5 first",
        ("m_agent_01", 4): "M agent 01 has already been revealed",
        ("blades_agent_5", 4): "Blades agent 5 is not a market card",
        ("game_end", 4): "The game-end card lies among the last 5 cards of the free-trade "
        "pile; 12 cards are left",
    }
    for (card, stake), message in messages.items():
        assert g.refuse(None, "reveal", card, stake=stake).message == message
    edited(g, piles={4: 1})
    assert g.refuse(None, "reveal", "m_agent_20", stake=4).message == (
        "The last card of the free-trade pile is the game-end card"
    )


def test_rule_6_the_game_end_card_is_refused_on_a_market_pile_naming_the_free_trade_stake(game):
    g = game(changes={f"blades_agent_{n}": {"arcana": {"political": 3}} for n in (1, 2)})
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 3}), ("agent", "blades_agent_2", {"stake": 1})]}
    )
    refused = g.refuse(None, "reveal", "game_end", stake=1)
    assert (refused.code, refused.message) == (
        "bad_reveal",
        "The game-end card is only in the free-trade pile (stake 5)",
    )


def test_rule_6_while_a_reveal_is_awaited_after_the_round_nobody_has_the_turn(game):
    g = game(changes=TWO_POLITICAL)
    german_example(g, reveal=False)
    data = state_to_json(g.state)
    assert (data["phase"], data["turn"], data["reveals"]) == ("evaluated", None, [4])
    g.do(None, "reveal", "m_agent_20", stake=4)
    data = state_to_json(g.state)
    assert (data["round"], data["phase"], data["turn"]) == (2, "play", g.state.start_player)
    assert data["acted"] is False and data["game_end_revealed"] is False


def test_rule_6_several_won_stakes_are_revealed_in_stake_order(game):
    g = game(changes={f"blades_agent_{n}": {"arcana": {"political": 3}} for n in (1, 2)})
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 3}), ("agent", "blades_agent_2", {"stake": 1})]}
    )
    assert g.state.reveals == (1, 3)
    assert g.refuse(None, "reveal", "m_agent_20", stake=3).code == "wrong_stake"
    g.do(None, "reveal", "m_agent_20", stake=1)
    assert pending(g.state).stake == 3
    g.do(None, "reveal", "m_agent_21", stake=3)
    assert pending(g.state).kind == "turn" and g.state.round == 2


def test_rule_6_a_used_up_pile_leaves_its_stake_empty(game):
    g = game(changes=TWO_POLITICAL)
    edited(g, piles={4: 0})
    german_example(g, reveal=False)
    assert g.state.stakes[4].market is None and not g.state.reveals and g.state.round == 2
    assert g.refuse(1, "agent", "ferrymen_agent_5", stake=4).code == "empty_stake"


@pytest.mark.parametrize(("left", "accepted"), [(5, True), (6, False), (1, True)])
def test_rule_6_the_game_end_card_lies_among_the_last_5_of_the_free_trade_pile(
    game, left, accepted
):
    g = game(changes=TWO_POLITICAL)
    edited(g, piles={4: left})
    german_example(g, reveal=False)
    if left == 1:  # the very last card of the free-trade pile must be the game-end card
        assert g.refuse(None, "reveal", "m_agent_20", stake=4).code == "bad_reveal"
    if not accepted:
        assert g.refuse(None, "reveal", "game_end", stake=4).code == "bad_reveal"
        return
    events = g.do(None, "reveal", "game_end", stake=4)
    assert events[0].kind == "game_end_revealed" and events[0].ends_now
    result = g.result
    assert result["finished"] and result["round"] == 1 and result["winners"] == ["Ann"]
    assert result["stakes"][4]["market"] is None
    assert g.refuse(1, "discard", "ferrymen_agent_5").code == "game_over"


def test_rule_6_the_game_end_card_after_a_bribe_ends_the_game_after_that_round(game):
    g = game(changes={"blades_agent_1": {"arcana": {"financial": 2}},
                      "ferrymen_agent_1": {"arcana": {"political": 3}}})  # fmt: skip
    edited(g, piles={4: 3})
    g.play(
        {
            0: [("agent", "blades_agent_1", {"stake": 4}), ("bribe", "blades_relic", {"stake": 4})],
            1: [("agent", "ferrymen_agent_1", {"stake": 2})],
            None: [("reveal", "game_end", {"stake": 4})],
        }
    )
    (end,) = g.of_kind("game_end_revealed")
    assert not end.ends_now
    assert state_to_json(g.state)["game_end_revealed"] is True
    result = g.result
    assert result["finished"] and result["round"] == 1
    # Ben won stake 2 in the final evaluation: no reveal follows, the stake stays empty
    assert result["stakes"][2]["market"] is None and g.state.reveals == ()
    assert "m_agent_03" in result["players"][1]["owned"]


def test_rule_7_evaluation_highest_strength_at_or_over_the_threshold_wins(game):
    g = game(changes={"blades_agent_1": {"arcana": {"political": 2}},
                      "ferrymen_agent_1": {"arcana": {"political": 2}}})  # fmt: skip
    events = g.play(
        {
            0: [("agent", "blades_agent_1", {"stake": 0}),
                ("agent", "blades_agent_2", {"stake": 0}),
                ("agent", "blades_agent_3", {"stake": 1})],
            1: [("agent", "ferrymen_agent_1", {"stake": 0}),
                ("agent", "ferrymen_agent_2", {"stake": 3})],
        }
    )  # fmt: skip
    by_stake = {e.stake: e for e in events if e.kind == "stake_evaluated"}
    assert set(by_stake) == {0, 1, 2, 3, 4}
    zero = by_stake[0]
    assert zero.strengths == (3, 2) and zero.contenders == (0,) and zero.winner == 0
    assert zero.turned_face_up == ((0, "blades_agent_1"), (0, "blades_agent_2"))
    assert zero.sent_home == (("blades_agent_1", "blades_agent_2"), ("ferrymen_agent_1",))
    # below the threshold nothing moves, but face-down agents stay face up
    one = by_stake[1]
    assert one.winner is None and one.contenders == () and one.strengths == (1, 0)
    assert one.turned_face_up == ((0, "blades_agent_3"),)
    assert g.state.stakes[1].agents[0] == (("blades_agent_3", False),)
    assert g.state.stakes[3].agents[1] == (("ferrymen_agent_2", False),)
    assert "ferrymen_agent_1" in g.state.possession[1]


def test_rule_8_a_bribe_that_reaches_the_agents_financial_value_takes_it_at_once(game):
    g = game(changes={"blades_agent_1": {"arcana": {"financial": 2}}})
    g.do(0, "agent", "blades_agent_1", stake=0)
    g.do(1, "agent", "ferrymen_agent_1", stake=0)
    (bribe,) = g.do(0, "bribe", "blades_relic", stake=0)
    numbers = (bribe.relic_financial, bribe.agent_financial, bribe.bribe_value, bribe.needed)
    assert numbers == (2, {"blades_agent_1": 2}, 4, 4)
    assert bribe.success and bribe.turned_face_up == ((0, "blades_agent_1"),)
    assert bribe.won == ("m_agent_01", "blades_agent_1", "blades_relic")
    assert bribe.sent_home == (("blades_agent_1",), ("ferrymen_agent_1",))
    assert {"m_agent_01", "blades_relic", "blades_agent_1"} <= set(g.state.possession[0])
    assert "blades_relic" not in g.state.ready[0]  # back in possession, playable next round
    g.do(None, "reveal", "m_agent_20", stake=0)
    g.do(1, "agent", "ferrymen_agent_2", stake=0)  # fought over again in the same round
    assert g.state.stakes[0].agents[1] == (("ferrymen_agent_2", False),)


def test_rule_10_a_card_bribed_mid_round_goes_under_the_base_and_the_hand_stays_as_it_is(game):
    g = game(changes={"blades_agent_1": {"arcana": {"financial": 2}}}, variant="advanced")
    g.do(0, "agent", "blades_agent_1", stake=0)
    g.do(1, "agent", "ferrymen_agent_1", stake=0)
    g.do(0, "bribe", "blades_relic", stake=0)
    hands = g.state.hand
    (stashed,) = g.do(0, "stash", "m_agent_01")
    assert (stashed.player, stashed.card) == (0, "m_agent_01")
    assert g.state.hand == hands  # the round had begun: its hands are not dealt again
    assert "m_agent_01" in g.state.under_base[0]


def test_rule_8_a_failed_bribe_returns_the_relic_and_changes_nothing_else(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=0)
    g.do(1, "discard", "ferrymen_agent_1")
    (bribe,) = g.do(0, "bribe", "blades_relic", stake=0)
    assert (bribe.bribe_value, bribe.needed, bribe.success, bribe.won) == (3, 4, False, ())
    assert (bribe.sent_home, bribe.militia_returned) == (((), ()), ())  # nobody sent home
    assert g.state.stakes[0].market == "m_agent_01"
    assert g.state.stakes[0].agents[0] == (("blades_agent_1", False),)  # turned face up
    assert "blades_relic" in g.state.possession[0] and not g.state.reveals


def test_rule_8_only_agents_can_be_bribed_and_only_with_an_agent_there(game):
    g = game(stakes=["m_loc_01", "m_relic_01", "m_agent_03", "m_agent_04", "m_agent_05"])
    g.do(0, "agent", "blades_agent_1", stake=0)
    g.do(1, "discard", "ferrymen_agent_1")
    assert g.refuse(0, "bribe", "blades_relic", stake=0).code == "not_bribable"
    assert g.refuse(0, "bribe", "blades_relic", stake=1).code == "not_bribable"
    refused = g.refuse(0, "bribe", "blades_relic", stake=2)
    assert refused.message == "Bribe needs one of your agents here"
    g.do(0, "agent", "blades_agent_2", stake=2)
    g.do(1, "discard", "ferrymen_agent_2")
    assert g.refuse(0, "bribe", "blades_agent_3", stake=2).code == "wrong_kind"


def test_rule_9_location_without_tracked_effect_returns_to_possession(game):
    g = game(guilds=("thieves", "ferrymen"))
    assert g.refuse(0, "location", "thieves_location", params={"a": 1}).code == "bad_params"
    (played,) = g.do(0, "location", "thieves_location")
    assert (played.effect, played.params) == ("none", {})
    assert "thieves_location" in g.state.possession[0] and g.state.hand[0] == 3


def test_rule_9_swap_stakes_trades_market_cards_and_leaves_agents(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=4)
    for params, code in [
        ({"a": 0, "b": 0}, "bad_params"),
        ({"a": 0}, "bad_params"),
        ({"a": 0, "b": 9}, "unknown_stake"),
    ]:
        assert g.refuse(1, "location", "ferrymen_location", params=params).code == code
    events = g.do(1, "location", "ferrymen_location", params={"a": 0, "b": 4})
    assert events[1].kind == "stakes_swapped"
    assert g.state.stakes[0].market == "m_agent_05" and g.state.stakes[4].market == "m_agent_01"
    assert g.state.stakes[4].agents[0] == (("blades_agent_1", False),)


def test_rule_9_move_agent_moves_an_own_agent_face_down_where_controlled(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=4)
    g.do(1, "agent", "ferrymen_agent_1", stake=4)
    theirs = {"card": "ferrymen_agent_1", "to": 0}
    assert g.refuse(0, "location", "blades_location", params=theirs).code == "bad_params"
    same = {"card": "blades_agent_1", "to": 4}
    assert g.refuse(0, "location", "blades_location", params=same).code == "bad_params"
    events = g.do(0, "location", "blades_location", params={"card": "blades_agent_1", "to": 0})
    moved = events[1]
    assert (moved.from_stake, moved.to_stake, moved.face_down) == (4, 0, True)
    assert g.state.stakes[0].agents[0] == (("blades_agent_1", True),)
    assert g.state.stakes[4].agents[0] == ()


def test_rule_10_a_discarded_relic_brings_militia_placed_at_once_for_that_player(game):
    g = game(variant="advanced")
    g.do(0, "discard", "blades_relic")
    assert pending(g.state).kind == "militia" and pending(g.state).player == 0
    assert g.refuse(1, "discard", "ferrymen_agent_1").code == "awaiting_militia"
    assert g.refuse(0, "militia", "militia_9", stake=4).code == "not_in_militia_deck"
    g.do(0, "militia", "militia_3", stake=4)
    assert "militia_3" in g.result["stakes"][4]["agents"][0]
    assert "militia_3" not in g.result["players"][0]["owned"]
    assert pending(g.state).player == 1
    assert g.refuse(1, "militia", "militia_4", stake=4).code == "no_militia"
    script = {0: [("agent", f"blades_agent_{n}", {"stake": 4}) for n in (1, 2)]}
    (free,) = [e for e in g.play(script) if e.kind == "stake_evaluated" and e.stake == 4]
    assert free.strengths == (3, 0) and free.winner == 0  # 1 + 1 + militia 1
    assert free.militia_returned == ("militia_3",) and "militia_3" in g.state.militia_deck


def test_rule_10_militia_is_placed_face_up_even_on_a_stake_its_player_controls(game):
    g = game(variant="advanced")
    g.do(0, "discard", "blades_relic")
    (placed,) = g.do(0, "militia", "militia_1", stake=0)  # stake 0 is Ann's: agents hide there
    assert placed.kind == "militia_placed" and placed.stake == 0
    assert g.state.stakes[0].agents[0] == (("militia_1", False),)
    (agent,) = g.do(1, "agent", "ferrymen_agent_1", stake=2)  # Ben's own stake: face down
    assert agent.face_down and g.state.stakes[2].agents[1] == (("ferrymen_agent_1", True),)


def test_rule_8_a_bribe_does_not_count_militia(game):
    """Ann's militia stands with her agent on stake 0; the bribe adds only the agent's
    financial 1 to the relic's 2: 3 of the 4 needed (with the militia's 1 it would be 4)."""
    g = game(variant="advanced", changes={"m_agent_01": {"arcana": {"political": 20}}})
    g.do(0, "discard", "blades_relic")
    g.do(0, "militia", "militia_1", stake=0)
    g.play({0: [("agent", "blades_agent_1", {"stake": 0})]})  # stake 0 stays unwon
    assert g.state.round == 2
    assert set(g.state.stakes[0].agents[0]) == {("blades_agent_1", False), ("militia_1", False)}
    g.do(1, "discard", "ferrymen_agent_2")
    (bribe,) = g.do(0, "bribe", "blades_relic", stake=0)
    assert bribe.agent_financial == {"blades_agent_1": 1}
    assert (bribe.bribe_value, bribe.needed, bribe.success) == (3, 4, False)
    assert g.state.stakes[0].market == "m_agent_01"


def test_rule_8_militia_alone_is_not_an_agent_to_bribe_with(game):
    g = game(variant="advanced", changes={"m_agent_01": {"arcana": {"political": 20}}})
    g.do(0, "discard", "blades_relic")
    g.do(0, "militia", "militia_1", stake=0)
    g.play({})  # round 1 ends with only the militia on stake 0
    assert g.state.stakes[0].agents[0] == (("militia_1", False),)
    while pending(g.state).player != 0:
        g.do(1, "discard", g.state.ready[1][0])
    refused = g.refuse(0, "bribe", "blades_relic", stake=0)
    assert refused.message == "Bribe needs one of your agents here"


def test_rule_10_militia_from_the_rounds_last_card_comes_before_the_evaluation(game):
    g = game(variant="advanced", start=1)
    moves = [
        (1, "discard", "ferrymen_agent_1", None),
        (0, "agent", "blades_agent_1", 4),
        (1, "discard", "ferrymen_agent_2", None),
        (0, "agent", "blades_agent_2", 4),
        (1, "discard", "ferrymen_agent_3", None),
        (0, "discard", "blades_agent_3", None),
        (1, "discard", "ferrymen_agent_4", None),
        (0, "discard", "blades_relic", None),
    ]
    for p, action, card, stake in moves:
        g.do(p, action, card, **({"stake": stake} if stake is not None else {}))
    assert not g.of_kind("stake_evaluated") and pending(g.state).kind == "militia"
    g.do(0, "militia", "militia_1", stake=4)
    (free,) = [e for e in g.of_kind("stake_evaluated") if e.stake == 4]
    assert free.strengths == (3, 0) and free.winner == 0


def test_rule_10_no_militia_when_the_deck_is_empty(game):
    g = game(variant="advanced")
    edited(g, militia_deck=[])
    (discarded,) = g.do(0, "discard", "blades_relic")
    assert not discarded.brings_militia and pending(g.state).player == 1


def test_rule_10_a_won_card_may_go_under_the_base_before_the_next_player_action(game):
    g = game(changes=TWO_POLITICAL, variant="advanced")
    german_example(g, reveal=False)
    assert pending(g.state).stash == ((0, "m_agent_05"),)
    refused = g.refuse(1, "stash", "m_agent_05")
    assert refused.code == "not_stashable"
    assert refused.message == (
        "Only a card you won since the last player action can go under your base"
    )
    (stashed,) = g.do(0, "stash", "m_agent_05")  # before the reveal is fine too
    assert (stashed.player, stashed.card) == (0, "m_agent_05")
    assert g.refuse(0, "stash", "m_agent_05").code == "not_stashable"  # once only
    g.do(None, "reveal", "m_agent_20", stake=4)
    result = g.result["players"][0]
    assert result["under_base"] == ["m_agent_05"] and "m_agent_05" in result["owned"]
    assert result["vp"] == 3 and "m_agent_05" not in g.state.possession[0]
    basic = game(changes=TWO_POLITICAL)
    german_example(basic)
    refused = basic.refuse(0, "stash", "m_agent_05")
    assert refused.code == "advanced_only"
    assert refused.message == "Putting cards under the base belongs to the advanced game"


def test_rule_10_a_card_stashed_before_the_next_rounds_first_action_is_not_in_its_hand(game):
    g = game(changes=TWO_POLITICAL, variant="advanced")
    two = [["blades_agent_1", "blades_agent_2"], [f"ferrymen_agent_{n}" for n in range(1, 9)]]
    edited(g, possession=two, ready=two, hand=[2, 4])
    german_example(g)
    assert g.state.round == 2 and g.state.hand == (3, 4)  # the agents and the won card
    g.do(0, "stash", "m_agent_05")
    assert g.state.hand == (2, 4) and "m_agent_05" not in g.state.ready[0]


def test_rule_10_the_stash_choice_closes_with_the_next_player_action(game):
    g = game(changes=TWO_POLITICAL, variant="advanced")
    german_example(g)
    p = pending(g.state).player
    g.do(p, "discard", g.state.ready[p][0])
    assert g.refuse(0, "stash", "m_agent_05").code == "not_stashable"


def test_rule_10_an_advanced_setup_may_leave_the_secret_tasks_out(setup_for):
    setup = setup_for(variant="advanced")
    del setup["tasks"]
    assert RULES.setup(setup).tasks == ((), ())
    setup["tasks"] = [["task_01", "task_01"], ["task_02", "task_03"]]
    with pytest.raises(RecordError, match="dealt twice"):
        RULES.setup(setup)


def test_rule_10_tasks_score_only_at_the_game_end(game):
    g = game(changes=TWO_POLITICAL, variant="advanced",
             stakes=["m_agent_01", "m_agent_03", "m_agent_04", "m_agent_05", "m_agent_02"],
             tasks=[["task_11", "task_12"], ["task_01", "task_02"]])  # fmt: skip
    edited(g, piles={4: 1})
    german_example(g, reveal=False)
    assert g.result["players"][0]["vp"] == 3  # temple tasks met, but not scored yet
    (ended,) = [e for e in g.do(None, "reveal", "game_end", stake=4) if e.kind == "game_ended"]
    assert ended.tasks_fulfilled == (("task_11", "task_12"), ())
    assert g.result["players"][0]["vp"] == 15 and ended.totals == (15, 0)
    assert (ended.round, ended.reason, ended.card_vp, ended.task_vp) == (
        g.state.round, "game_end_card", (3, 0), (12, 0),
    )  # fmt: skip
    assert ended.winners == (0,)


def test_rule_11_scoring_counts_cards_wherever_they_lie_and_shares_equal_totals(game):
    strong = {"ferrymen_agent_1": {"arcana": {"political": 3}}}
    stakes = ["m_agent_01", "m_agent_03", "m_agent_06", "m_agent_05", "m_agent_02"]
    g = game(changes={**TWO_POLITICAL, **HOPELESS, **strong}, stakes=stakes)
    win_both = {
        0: [("agent", "blades_agent_1", {"stake": 4}), ("agent", "blades_agent_2", {"stake": 4})],
        1: [("agent", "ferrymen_agent_1", {"stake": 2})],
    }
    g.play(win_both)
    g.do(None, "reveal", "m_agent_20", stake=2)
    g.do(None, "reveal", "m_agent_21", stake=4)
    assert [p["vp"] for p in g.result["players"]] == [3, 3]
    assert not g.result["finished"] and "winners" not in g.result
    edited(g, piles={4: 1})
    win_both[0].insert(0, ("agent", "m_agent_02", {"stake": 0}))  # hopeless: stays there
    g.play(win_both)
    g.do(None, "reveal", "m_agent_22", stake=2)
    g.do(None, "reveal", "game_end", stake=4)
    result = g.result
    ann, ben = result["players"]
    assert result["stakes"][0]["agents"][0] == ["m_agent_02"]
    assert {"blades_base", "m_agent_02", "m_agent_21"} <= set(ann["owned"])
    assert (ann["vp"], ben["vp"]) == (6, 6) and result["winners"] == ["Ann", "Ben"]
    assert result["round"] == 2
