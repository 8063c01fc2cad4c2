"""Each refused Arcana move: its code and the sentence the table shows (stakes named from 1,
cards by name, the guild whose move it is), and the position left as it was (`Game.refuse`)."""

from __future__ import annotations

from engine.arcana import RULES, pending, state_from_json, state_to_json, view
from engine.arcana.state import Action
from engine.arcana.view import Pending


def refusals(g, moves):
    out = []
    for player, action, card, extra in moves:
        refused = g.refuse(player, action, card, **extra)
        out.append((refused.code, refused.message))
    return out


def test_refusals_at_the_start_of_a_basic_game(game):
    g = game()
    assert refusals(
        g,
        [
            (0, "militia", "militia_3", {"stake": 4}),
            (1, "agent", "ferrymen_agent_1", {"stake": 0}),
            (0, "agent", "blades_relic", {"stake": 0}),
            (0, "location", "blades_agent_1", {}),
            (0, "agent", "ferrymen_agent_1", {"stake": 0}),
            (0, "bribe", "blades_relic", {"stake": 0}),
            (0, "location", "blades_location", {"params": {"card": "blades_agent_1"}}),
            (0, "location", "blades_location", {"params": {"card": "blades_agent_1", "to": "x"}}),
            (0, "location", "blades_location", {"params": {"card": "blades_agent_1", "to": 0}}),
        ],
    ) == [
        ("advanced_only", "Militia belongs to the advanced game"),
        ("not_your_turn", "Blades to play"),
        ("wrong_kind", "Blades relic is a relic, not an agent"),
        ("wrong_kind", "Blades agent 1 is an agent, not a location"),
        ("not_in_possession", "Ferrymen agent 1 is not in your possession"),
        ("no_agent_here", "Bribe needs one of your agents here"),
        ("bad_params", "Blades location (move_agent) takes card, to"),
        ("bad_params", 'parameter "to" must be a stake number'),
        ("bad_params", "blades_agent_1 is not one of your agents on a stake"),
    ]


def test_refusals_once_agents_are_on_the_stakes(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=4)
    assert refusals(
        g,
        [
            (1, "location", "ferrymen_location", {"params": {"a": 0, "b": 0}}),
            (1, "location", "ferrymen_location", {"params": {"a": 0}}),
            (1, "location", "ferrymen_location", {"params": {"a": "0", "b": 1}}),
        ],
    ) == [
        ("bad_params", "Swapping needs two different stakes"),
        ("bad_params", "Ferrymen location (swap_stakes) takes a, b"),
        ("bad_params", 'parameter "a" must be a stake number'),
    ]
    g.do(1, "agent", "ferrymen_agent_1", stake=4)
    assert refusals(
        g,
        [
            (0, "agent", "blades_agent_1", {"stake": 0}),
            (0, "location", "blades_location", {"params": {"card": "blades_agent_1", "to": 4}}),
        ],
    ) == [
        ("already_on_stake", "That agent is already on stake 5"),
        ("bad_params", "That agent is already on stake 5"),
    ]


def test_refusals_around_a_militia_in_the_advanced_game(game):
    g = game(variant="advanced")
    assert refusals(g, [(0, "militia", "militia_3", {"stake": 4})]) == [
        ("no_militia", "A militia comes only right after a relic is discarded")
    ]
    g.do(0, "discard", "blades_relic")
    assert refusals(
        g,
        [
            (1, "discard", "ferrymen_agent_1", {}),
            (0, "discard", "blades_agent_1", {}),  # the right player, but not the militia
            (0, "militia", "militia_9", {"stake": 4}),
        ],
    ) == [
        ("awaiting_militia", "Blades places a militia first"),
        ("awaiting_militia", "Blades places a militia first"),
        ("not_in_militia_deck", "militia_9 is not in the militia deck"),
    ]


def test_a_move_while_a_reveal_is_awaited_names_the_stake_from_1(game):
    g = game(changes={f"blades_agent_{n}": {"arcana": {"political": 3}} for n in (1, 2)})
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 3}), ("agent", "blades_agent_2", {"stake": 1})]}
    )
    assert refusals(g, [(1, "agent", "ferrymen_agent_5", {"stake": 0})]) == [
        ("awaiting_reveal", "Reveal the next card on stake 2 first")
    ]


def test_a_location_without_an_effect_takes_no_parameters_and_plays_once_a_round(game):
    g = game(guilds=("thieves", "ferrymen"))
    assert refusals(g, [(0, "location", "thieves_location", {"params": {"a": 1}})]) == [
        ("bad_params", "Thieves location (none) takes no parameters")
    ]
    (played,) = g.do(0, "location", "thieves_location")
    assert played.effect == "none"
    g.do(1, "agent", "ferrymen_agent_1", stake=0)
    assert refusals(g, [(0, "location", "thieves_location", {})]) == [
        (
            "not_ready",
            "Thieves location was played or came back this round; it can be played next round",
        )
    ]


def test_a_move_that_is_no_action_of_the_game_is_refused_by_name(game):
    g = game()
    refused = RULES.apply(g.state, Action("fly", 0, "blades_agent_1"))
    assert (refused.code, refused.message) == ("unknown_action", 'unknown action "fly"')


def test_nothing_is_played_once_the_game_is_over(game):
    g = game(changes={"blades_agent_2": {"arcana": {"political": 2}}})
    data = state_to_json(g.state)
    data["stakes"][4]["pile"] = 5
    g.state = state_from_json(data)
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 4}), ("agent", "blades_agent_2", {"stake": 4})]}
    )
    unseen = [c for c in g.state.catalog.market if c not in g.state.seen]
    assert len(unseen) == 55  # 60 market cards, the 5 on the stakes seen
    assert RULES.legal_actions(g.state) == [
        *(Action("reveal", None, card, 4) for card in unseen),
        Action("reveal", None, "game_end", 4),  # 5 cards left on the free-trade stake
    ]
    g.do(None, "reveal", "game_end", stake=4)
    assert refusals(g, [(1, "discard", "ferrymen_agent_5", {})]) == [
        ("game_over", "The game is over")
    ]
    assert RULES.legal_actions(g.state) == []
    assert pending(g.state) == Pending("over", None, None, (), "The game is over")
    assert view(g.state, None)["finished"] is True


def test_a_played_card_or_placed_militia_marks_the_round_as_begun(game):
    g = game()
    assert state_to_json(g.state)["acted"] is False
    g.do(0, "agent", "blades_agent_1", stake=4)
    assert state_to_json(g.state)["acted"] is True
    a = game(variant="advanced")
    a.do(0, "discard", "blades_relic")
    data = state_to_json(a.state)
    data["acted"] = False  # as if the relic had been the round's first card: the militia acts
    a.state = state_from_json(data)
    a.do(0, "militia", "militia_3", stake=4)
    assert state_to_json(a.state)["acted"] is True


def test_a_swap_event_names_both_stakes_and_their_new_market_cards(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=4)
    events = g.do(1, "location", "ferrymen_location", params={"a": 0, "b": 4})
    swapped = events[1]
    assert (swapped.a, swapped.b, swapped.market_a, swapped.market_b) == (
        0,
        4,
        "m_agent_05",
        "m_agent_01",
    )


def test_an_unknown_card_player_or_stake_is_refused_by_name(game):
    g = game()
    assert refusals(
        g,
        [
            (0, "agent", "no_card", {"stake": 0}),
            (2, "agent", "blades_agent_1", {"stake": 0}),
            (0, "agent", "blades_agent_1", {"stake": 5}),
        ],
    ) == [
        ("unknown_card", 'There is no card "no_card" in the catalog'),
        ("unknown_player", "There is no player 2 (players 0 to 1 in a record)"),
        ("unknown_stake", "There is no stake 6 (stakes 1 to 5)"),  # stakes counted from 1
    ]
    # A record line always names a stake; the API's Action may leave it out.
    refused = RULES.apply(g.state, Action("agent", 0, "blades_agent_1"))
    assert (refused.code, refused.message) == ("unknown_stake", "No stake given (stakes 1 to 5)")
    three = game(players=3)
    assert refusals(three, [(0, "agent", "blades_agent_1", {"stake": 4})]) == [
        ("unknown_stake", "There is no stake 5 (stakes 1 to 4)")
    ]


def test_an_agent_is_refused_on_a_stake_without_a_market_card(game):
    g = game()
    data = state_to_json(g.state)
    data["stakes"][1]["market"] = None
    g.state = state_from_json(data)
    assert refusals(g, [(0, "agent", "blades_agent_1", {"stake": 1})]) == [
        ("empty_stake", "Stake 2 shows no market card")
    ]


def test_the_turn_passes_over_a_player_without_cards_to_the_next_seat_round_the_table(game):
    g = game(players=3)
    data = state_to_json(g.state)
    data["hand"] = [4, 0, 4]
    g.state = state_from_json(data)
    g.do(0, "discard", "blades_agent_1")
    assert g.state.turn == 2


def test_a_refusal_raised_inside_the_engine_reads_as_its_sentence():
    from engine.arcana.checks import Refused

    refused = Refused("unknown_card", 'There is no card "x" in the catalog')
    assert str(refused) == 'There is no card "x" in the catalog'
    assert (refused.code, refused.message) == ("unknown_card", str(refused))


def test_only_an_agent_on_the_market_can_be_bribed(game):
    stakes = ["m_loc_01", "m_relic_01", "m_agent_03", "m_agent_04", "m_agent_05"]
    g = game(stakes=stakes)
    assert refusals(
        g, [(0, "bribe", "blades_relic", {"stake": 0}), (0, "bribe", "blades_relic", {"stake": 1})]
    ) == [
        ("not_bribable", "Only agents can be bribed; stake 1 shows a location"),
        ("not_bribable", "Only agents can be bribed; stake 2 shows a relic"),
    ]


def test_a_bribe_spends_the_relic_for_the_round_and_the_relic_returns(game):
    g = game()
    g.do(0, "agent", "blades_agent_1", stake=2)
    g.do(1, "agent", "ferrymen_agent_1", stake=2)
    (bribed,) = [e for e in g.do(0, "bribe", "blades_relic", stake=2) if e.kind == "bribed"]
    assert bribed.player == 0
    assert not bribed.success
    assert "blades_relic" in g.state.possession[0]  # it returns, won or lost (rule [8])
    assert "blades_relic" not in g.state.ready[0]  # but it is played for this round


def test_a_militia_is_not_an_agent_a_location_can_move(game):
    g = game(variant="advanced")
    g.do(0, "discard", "blades_relic")
    g.do(0, "militia", "militia_3", stake=4)
    g.do(1, "discard", "ferrymen_agent_1")
    params = {"card": "militia_3", "to": 0}
    assert refusals(g, [(0, "location", "blades_location", {"params": params})]) == [
        ("bad_params", "militia_3 is not one of your agents on a stake")
    ]
