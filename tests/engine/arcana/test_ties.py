"""Ties in power struggles (house rules [2] and [7]).

Three players on the free-trade stake 3, whose market card needs political 3 (political 2
where said). Guild agents have 1 in every arcanum, so n agents give strength n.
"""

from __future__ import annotations

import pytest


def struggle_on_free_stake(g, agents_per_seat):
    script = {
        p: [("agent", f"{g.state.guilds[p]}_agent_{n}", {"stake": 3}) for n in range(1, k + 1)]
        for p, k in enumerate(agents_per_seat)
    }
    (struggle,) = [e for e in g.play(script) if e.kind == "stake_evaluated" and e.stake == 3]
    return struggle


def test_the_guild_tie_break_gives_the_card_to_the_guild_of_the_arcanum(game):
    g = game(players=2, guilds=("ferrymen", "blades"))
    script = {p: [("agent", f"{g.state.guilds[p]}_agent_{n}", {"stake": 4}) for n in (1, 2, 3)]
              for p in (0, 1)}  # fmt: skip
    (struggle,) = [e for e in g.play(script) if e.kind == "stake_evaluated" and e.stake == 4]
    assert struggle.tied == (0, 1) and struggle.tie_arcana == ("political", "military")
    assert (struggle.tie_break, struggle.winner) == ("guild", 0)
    home = tuple(tuple(f"{guild}_agent_{n}" for n in (1, 2, 3)) for guild in ("ferrymen", "blades"))
    assert struggle.sent_home == home


def test_a_three_way_tie_goes_to_the_one_tied_guild_with_the_arcanum(game):
    g = game(players=3, guilds=("blades", "ferrymen", "thieves"))
    struggle = struggle_on_free_stake(g, (3, 3, 3))
    assert struggle.strengths == (3, 3, 3) and struggle.tied == (0, 1, 2)
    assert (struggle.tie_break, struggle.winner) == ("guild", 1)
    assert "m_agent_04" in g.result["players"][1]["owned"]


def test_a_three_way_tie_without_the_arcanum_leaves_everything_in_place(game):
    g = game(players=3, guilds=("blades", "thieves", "usurers"))
    struggle = struggle_on_free_stake(g, (3, 3, 3))
    assert (struggle.tie_break, struggle.winner, struggle.won) == ("unresolved", None, ())
    stake = g.result["stakes"][3]
    assert stake["market"] == "m_agent_04"
    assert [len(side) for side in stake["agents"]] == [3, 3, 3]
    assert g.state.reveals == () and g.state.round == 2


def test_a_guild_with_the_arcanum_below_the_tied_top_does_not_break_the_tie(game):
    g = game(players=3, guilds=("blades", "ferrymen", "thieves"),
             changes={"m_agent_04": {"arcana": {"political": 2}}})  # fmt: skip
    struggle = struggle_on_free_stake(g, (3, 2, 3))
    assert struggle.contenders == (0, 1, 2) and struggle.tied == (0, 2)
    assert (struggle.tie_break, struggle.winner) == ("unresolved", None)


def test_two_tied_guilds_sharing_the_arcanum_leave_the_tie_unresolved(game, test_catalog):
    catalog = test_catalog()
    catalog["guilds"]["thieves"]["tie_arcanum"] = "political"
    g = game(players=3, guilds=("ferrymen", "thieves", "blades"), catalog=catalog)
    struggle = struggle_on_free_stake(g, (3, 3, 1))
    assert struggle.tied == (0, 1) and struggle.tie_arcana[:2] == ("political", "political")
    assert (struggle.tie_break, struggle.winner) == ("unresolved", None)


@pytest.mark.parametrize(
    ("agents", "winner", "tied"),
    [((4, 3, 3), 0, ()), ((2, 2, 0), None, ())],
    ids=["tie-below-the-top", "tie-below-the-threshold"],
)
def test_ties_that_do_not_matter(game, agents, winner, tied):
    g = game(players=3, guilds=("blades", "thieves", "usurers"))
    struggle = struggle_on_free_stake(g, agents)
    assert (struggle.winner, struggle.tied, struggle.tie_break) == (winner, tied, "none")
