"""Hidden information, what the table waits for, events as JSON and states as JSON."""

from __future__ import annotations

import json
import random

from engine.arcana import (
    RULES,
    current_player,
    is_terminal,
    pending,
    random_playout,
    state_from_json,
    state_to_json,
    view,
)
from engine.arcana.view import Pending
from engine.protocol import event_to_json, play


def hidden_agents_game(game):
    g = game(variant="advanced")
    g.do(0, "agent", "blades_agent_1", stake=0)  # Ann controls 0: face down
    g.do(1, "agent", "ferrymen_agent_1", stake=0)  # Ben does not: face up
    g.do(0, "agent", "blades_agent_2", stake=1)
    g.do(1, "discard", "ferrymen_agent_2")
    g.do(0, "agent", "blades_agent_3", stake=0)
    return g


def test_the_public_view_shows_face_down_agents_only_as_counts(game):
    g = hidden_agents_game(game)
    public = json.loads(json.dumps(view(g.state, None)))
    ann, ben = public["stakes"][0]["agents"]
    assert ann["summary"] == "Blades: 0 shown + 2 hidden" and ann["hidden"] == 2
    assert ben["summary"] == "Ferrymen: 1 shown + 0 hidden" and ben["shown"] == ["ferrymen_agent_1"]
    assert "blades_agent_1" not in json.dumps(public)
    assert public["players"][0]["tasks"] == 2 and public["players"][0]["possession"] == 8


def test_a_player_sees_their_own_face_down_agents_and_tasks_but_not_others(game):
    g = hidden_agents_game(game)
    ann_view = view(g.state, 0)
    assert ann_view["stakes"][0]["agents"][0]["hidden"] == ["blades_agent_1", "blades_agent_3"]
    assert ann_view["players"][0]["tasks"] == ["task_01", "task_02"]
    ben_view = view(g.state, 1)
    assert ben_view["stakes"][0]["agents"][0]["hidden"] == 2
    assert ben_view["players"][0]["tasks"] == 2
    assert "blades_agent_1" not in json.dumps(ben_view)


def test_face_down_agents_revealed_by_the_evaluation_become_public(game):
    g = hidden_agents_game(game)
    g.play({})
    public = view(g.state, None)
    assert public["stakes"][1]["agents"][0]["shown"] == ["blades_agent_2"]
    assert public["stakes"][1]["agents"][0]["hidden"] == 0


def test_pending_says_whose_turn_which_reveal_which_militia_and_the_end(game):
    g = game(variant="advanced", changes={"blades_agent_2": {"arcana": {"political": 2}}})
    assert pending(g.state).kind == "turn" and pending(g.state).prompt.startswith("Blades (Ann)")
    assert current_player(g.state) == 0
    g.do(0, "discard", "blades_relic")
    assert (pending(g.state).kind, pending(g.state).player) == ("militia", 0)
    assert pending(g.state) == Pending(
        "militia", 0, None, (), "Blades (Ann): place the top militia card"
    )
    g.do(0, "militia", "militia_2", stake=3)
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 4}), ("agent", "blades_agent_2", {"stake": 4})]}
    )
    waiting = pending(g.state)
    assert (waiting.kind, waiting.stake, waiting.stash) == ("reveal", 4, ((0, "m_agent_05"),))
    assert waiting.prompt == "Reveal the next card on stake 5" and current_player(g.state) is None
    assert view(g.state, None)["pending"] == {
        "kind": "reveal",
        "player": None,
        "stake": 4,
        "stash": [[0, "m_agent_05"]],  # Ann may still put the card she won under her base
        "prompt": "Reveal the next card on stake 5",
    }
    assert not is_terminal(g.state)


def test_every_event_is_plain_json_with_the_numbers_of_a_struggle(game):
    g = hidden_agents_game(game)
    g.play({})
    data = [json.loads(json.dumps(event_to_json(e))) for e in g.events]
    struggle = next(e for e in data if e["kind"] == "stake_evaluated" and e["stake"] == 0)
    assert struggle["threshold"] == 3 and struggle["arcanum"] == "political"
    assert struggle["strengths"] == [2, 1] and struggle["winner"] is None
    assert struggle["turned_face_up"] == [[0, "blades_agent_1"], [0, "blades_agent_3"]]
    assert {e["kind"] for e in data} >= {"agent_placed", "card_discarded", "round_started"}


def test_a_state_survives_json_and_plays_on_identically():
    played = random_playout(random.Random(3), 4, "advanced", record=True)
    lines = played["lines"]
    state = RULES.setup(played["setup"])
    for line in lines[: len(lines) // 2]:
        state = play(RULES, state, RULES.decode_action(line)).state
    again = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert again == state
    for line in lines[len(lines) // 2 :]:
        again = play(RULES, again, RULES.decode_action(line)).state
    assert again == played["state"] and is_terminal(again)


def test_a_player_s_whole_view_of_the_table(game):
    g = game(variant="advanced")
    g.do(0, "agent", "blades_agent_1", stake=0)  # face down: Ann controls stake 1
    g.do(1, "agent", "ferrymen_agent_1", stake=0)
    g.do(0, "agent", "blades_agent_2", stake=1)
    ann = view(g.state, 0)
    assert {key: ann[key] for key in ("game", "variant", "round", "start_player", "finished")} == {
        "game": "arcana",
        "variant": "advanced",
        "round": 1,
        "start_player": 0,
        "finished": False,
    }
    assert ann["pending"] == {
        "kind": "turn",
        "player": 1,
        "stake": None,
        "stash": [],
        "prompt": "Ferrymen (Ben) to play (3 in hand)",
    }
    assert ann["stakes"][0] == {
        "stake": 0,
        "market": "m_agent_01",
        "market_name": "M agent 01",
        "pile": 11,
        "free_trade": False,
        "controlled_by": [0],
        "agents": [
            {
                "player": 0,
                "shown": [],
                "hidden": ["blades_agent_1"],
                "summary": "Blades: 0 shown + 1 hidden",
            },
            {
                "player": 1,
                "shown": ["ferrymen_agent_1"],
                "hidden": 0,
                "summary": "Ferrymen: 1 shown + 0 hidden",
            },
        ],
    }
    free = ann["stakes"][4]
    assert (free["stake"], free["pile"], free["free_trade"], free["controlled_by"]) == (
        4,
        12,
        True,
        [],
    )
    ready = [f"blades_agent_{n}" for n in range(3, 10)] + ["blades_location", "blades_relic"]
    assert ann["players"] == [
        {
            "name": "Ann",
            "guild": "blades",
            "hand": 2,
            "possession": ready,
            "under_base": [],
            "tasks": ["task_01", "task_02"],
            "ready": ready,
            "vp": 0,
        },
        {
            "name": "Ben",
            "guild": "ferrymen",
            "hand": 3,
            "possession": 10,
            "under_base": [],
            "tasks": 2,
        },
    ]
    assert ann["militia_deck"] == 6
    assert view(g.state, None)["players"][0] == {
        "name": "Ann",
        "guild": "blades",
        "hand": 2,
        "possession": 9,
        "under_base": [],
        "tasks": 2,
    }


def test_a_stake_without_a_market_card_has_no_market_name(game):
    g = game()
    data = state_to_json(g.state)
    data["stakes"][2]["market"] = None
    g.state = state_from_json(data)
    stake = view(g.state, None)["stakes"][2]
    assert (stake["market"], stake["market_name"]) == (None, None)


def test_a_player_named_after_their_guild_is_called_by_the_guild_alone(game):
    g = game()
    data = state_to_json(g.state)
    data["names"] = ["Blades", "Ben"]
    g.state = state_from_json(data)
    assert pending(g.state).prompt == "Blades to play (4 in hand)"
    g.do(0, "discard", "blades_agent_1")
    assert pending(g.state).prompt == "Ferrymen (Ben) to play (4 in hand)"
