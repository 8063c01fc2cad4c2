"""Record lines <-> Arcana actions: the shape of each line, and a sentence for each misfit."""

from __future__ import annotations

import pytest

from engine.arcana.actions import decode_action, encode_action
from engine.arcana.state import Action
from engine.records import RecordError

LINES = [
    (
        {"player": 0, "action": "agent", "card": "blades_agent_3", "stake": 2},
        Action("agent", 0, "blades_agent_3", 2),
    ),
    (
        {"player": 1, "action": "discard", "card": "ferrymen_relic"},
        Action("discard", 1, "ferrymen_relic"),
    ),
    (
        {"action": "reveal", "stake": 4, "card": "m_agent_07"},
        Action("reveal", None, "m_agent_07", 4),
    ),
    (
        {
            "player": 1,
            "action": "location",
            "card": "ferrymen_location",
            "params": {"b": 3, "a": 0},
        },
        Action("location", 1, "ferrymen_location", None, (("a", 0), ("b", 3))),
    ),
    (
        {
            "player": 0,
            "action": "location",
            "card": "blades_location",
            "params": {"card": "blades_agent_1", "to": 2},
        },
        Action("location", 0, "blades_location", None, (("card", "blades_agent_1"), ("to", 2))),
    ),
    (
        {"player": 2, "action": "location", "card": "thieves_location"},
        Action("location", 2, "thieves_location"),
    ),
]


@pytest.mark.parametrize(("line", "action"), LINES, ids=[line["action"] for line, _ in LINES])
def test_a_line_decodes_to_its_action_and_encodes_back_to_the_same_line(line, action):
    assert decode_action(line) == action
    assert encode_action(action) == line
    assert list(encode_action(action)) == list(line)  # keys in the spec's order


def test_a_reveal_has_no_player_and_a_discard_no_stake_even_when_the_line_gives_one():
    assert decode_action(
        {"player": 3, "action": "reveal", "stake": 1, "card": "m_agent_02"}
    ) == Action("reveal", None, "m_agent_02", 1)
    assert decode_action(
        {"player": 0, "action": "discard", "card": "blades_agent_1", "stake": 2}
    ) == Action("discard", 0, "blades_agent_1", None)


MISFITS = [
    (
        {"player": 0, "action": "fly", "card": "blades_agent_1"},
        "unknown action 'fly' (Arcana actions: agent, bribe, location, discard, militia, stash, "
        "reveal)",
    ),
    (
        {"player": 0, "action": 7, "card": "blades_agent_1"},
        "unknown action 7 (Arcana actions: agent, bribe, location, discard, militia, stash, "
        "reveal)",
    ),
    ({"player": 0, "action": "agent", "stake": 1}, 'an "agent" line needs "card": a card id'),
    ({"player": 0, "action": "agent", "card": "", "stake": 1}, 'an "agent" line needs "card"'),
    ({"player": 0, "action": "agent", "card": 5, "stake": 1}, 'an "agent" line needs "card"'),
    (
        {"action": "discard", "card": "blades_agent_1"},
        'a "discard" line needs "player": a seat number',
    ),
    ({"player": True, "action": "discard", "card": "x"}, 'a "discard" line needs "player"'),
    ({"player": "0", "action": "discard", "card": "x"}, 'a "discard" line needs "player"'),
    ({"player": 0, "action": "bribe", "card": "x"}, 'a "bribe" line needs "stake": a stake number'),
    (
        {"player": 0, "action": "militia", "card": "x", "stake": "2"},
        'a "militia" line needs "stake"',
    ),
    (
        {"player": 0, "action": "location", "card": "x", "params": [1, 2]},
        '"params" must be an object of stake numbers and card ids',
    ),
    (
        {"player": 0, "action": "location", "card": "x", "params": {"a": 1.5}},
        '"params" must be an object of stake numbers and card ids',
    ),
]


@pytest.mark.parametrize(("line", "sentence"), MISFITS, ids=[m[1][:30] for m in MISFITS])
def test_a_line_that_does_not_fit_is_refused_with_what_it_lacks(line, sentence):
    with pytest.raises(RecordError) as refused:
        decode_action(line)
    assert str(refused.value).startswith(sentence)
