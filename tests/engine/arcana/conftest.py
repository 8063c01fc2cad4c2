"""Arcana test tables: a small inline catalog with plain values, and a game driven by record
lines, so each rule test states exactly the numbers it relies on.

Default test catalog: every guild agent has 1 in each arcanum; guild relics have financial 2;
market agents need political 3 (financial 4); market locations need spiritual 3; market
relics need military 3. `changes` overrides fields of single cards.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.arcana import RULES, State, pending, state_to_json
from engine.protocol import Applied, Rejection

ARCANA = ("military", "political", "spiritual", "financial")
GUILDS = ("blades", "ferrymen", "thieves", "usurers")
EFFECTS = {"blades": "move_agent", "ferrymen": "swap_stakes", "thieves": "none", "usurers": "none"}


def arc(military=0, political=0, spiritual=0, financial=0) -> dict[str, int]:
    return {
        "military": military,
        "political": political,
        "spiritual": spiritual,
        "financial": financial,
    }


def catalog_object(changes: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for g in GUILDS:
        cards.append({"id": f"{g}_base", "kind": "base", "guild": g, "vp": 0})
        for n in range(1, 10):
            cards.append(
                {
                    "id": f"{g}_agent_{n}",
                    "kind": "agent",
                    "guild": g,
                    "vp": 0,
                    "arcana": arc(1, 1, 1, 1),
                }
            )
        cards.append(
            {"id": f"{g}_location", "kind": "location", "guild": g, "vp": 0,
             "effect": EFFECTS[g], "arcana": arc()}
        )  # fmt: skip
        cards.append(
            {"id": f"{g}_relic", "kind": "relic", "guild": g, "vp": 0, "arcana": arc(financial=2)}
        )
    for n in range(1, 41):
        cards.append(
            {"id": f"m_agent_{n:02d}", "kind": "agent", "vp": 3, "main": "political",
             "fief": "automaton" if n % 2 else "temple", "arcana": arc(1, 3, 1, 4)}
        )  # fmt: skip
    for n in range(1, 11):
        cards.append(
            {"id": f"m_loc_{n:02d}", "kind": "location", "vp": 5, "main": "spiritual",
             "fief": "harbour", "effect": "none", "arcana": arc(0, 0, 3, 0)}
        )  # fmt: skip
        cards.append(
            {"id": f"m_relic_{n:02d}", "kind": "relic", "vp": 1, "main": "military",
             "fief": "temple", "arcana": arc(3, 0, 0, 2)}
        )  # fmt: skip
    cards.append({"id": "game_end", "kind": "game_end", "vp": 0})
    for n in range(1, 7):
        cards.append({"id": f"militia_{n}", "kind": "militia", "vp": 0, "arcana": arc(1, 1, 1, 1)})
    for n in range(1, 21):
        fief, count = ("automaton", 2) if n <= 10 else ("temple", 1)
        cards.append({"id": f"task_{n:02d}", "kind": "task", "vp": 6, "fief": fief, "count": count})
    by_id = {card["id"]: card for card in cards}
    for cid, fields in (changes or {}).items():
        if "arcana" in fields:
            by_id[cid]["arcana"] = {**by_id[cid]["arcana"], **fields["arcana"]}
        by_id[cid].update({k: v for k, v in fields.items() if k != "arcana"})
    guilds = {g: {"tie_arcanum": t} for g, t in zip(GUILDS, ARCANA, strict=True)}
    return {"name": "test", "guilds": guilds, "cards": cards}


def make_setup(
    players: int = 2,
    guilds: tuple[str, ...] | None = None,
    start: int = 0,
    stakes: list[str] | None = None,
    variant: str = "basic",
    tasks: list[list[str]] | None = None,
    changes: dict[str, dict[str, Any]] | None = None,
    catalog: Any = None,
) -> dict[str, Any]:
    count = 4 if players == 3 else 5
    setup: dict[str, Any] = {
        "catalog": catalog if catalog is not None else catalog_object(changes),
        "variant": variant,
        "players": [
            {"name": name, "guild": guild}
            for name, guild in zip(("Ann", "Ben", "Cas", "Dee"), guilds or GUILDS, strict=False)
        ][:players],
        "start_player": start,
        "stakes": stakes or [f"m_agent_{n:02d}" for n in range(1, count + 1)],
    }
    if variant == "advanced":
        setup["tasks"] = tasks or [
            [f"task_{2 * p + 1:02d}", f"task_{2 * p + 2:02d}"] for p in range(players)
        ]
    return setup


class Game:
    """A game driven by record lines; `do` insists on acceptance, `refuse` on rejection."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.setup = copy.deepcopy(setup)
        self.state: State = RULES.setup(setup)
        self.lines: list[dict[str, Any]] = []
        self.events: list[Any] = []

    def line(self, player: int | None, action: str, card: str, **extra: Any) -> dict[str, Any]:
        line: dict[str, Any] = {"action": action, "card": card, **extra}
        if player is not None:
            line["player"] = player
        return line

    def do(self, player: int | None, action: str, card: str, **extra: Any) -> list[Any]:
        line = self.line(player, action, card, **extra)
        outcome = RULES.apply(self.state, RULES.decode_action(line))
        assert isinstance(outcome, Applied), f"{line} refused: {outcome}"
        self.state = outcome.state
        self.lines.append(line)
        self.events.extend(outcome.events)
        return list(outcome.events)

    def refuse(self, player: int | None, action: str, card: str, **extra: Any) -> Rejection:
        before = state_to_json(self.state)
        outcome = RULES.apply(
            self.state, RULES.decode_action(self.line(player, action, card, **extra))
        )
        assert isinstance(outcome, Rejection), f"{action} {card} {extra} was accepted"
        assert state_to_json(self.state) == before
        return outcome

    def discard_round(self) -> list[Any]:
        """Everyone discards until the round is evaluated (no relics, to avoid militia)."""
        events: list[Any] = []
        start_round = self.state.round
        while (
            self.state.round == start_round
            and self.state.phase == "play"
            and not self.state.reveals
        ):
            waiting = pending(self.state)
            assert waiting.kind == "turn", waiting
            p = waiting.player
            ready = self.state.ready[p]
            card = next((c for c in ready if not c.endswith("relic")), ready[0])
            events += self.do(p, "discard", card)
        return events

    def play(self, script: dict[int | None, list[tuple]]) -> list[Any]:
        """Play one round: each seat's scripted (action, card, extra) moves in turn order,
        then discards of non-relic cards; `script[None]` feeds reveals awaited mid-round.
        Stops once the round is evaluated (or the game is over)."""
        moves = {key: list(value) for key, value in script.items()}
        events: list[Any] = []
        start_round = self.state.round
        while self.state.phase == "play" and self.state.round == start_round:
            waiting = pending(self.state)
            if waiting.kind == "reveal":
                action, card, extra = moves[None].pop(0)
                events += self.do(None, action, card, **extra)
                continue
            p = waiting.player
            if moves.get(p):
                action, card, extra = moves[p].pop(0)
                events += self.do(p, action, card, **extra)
                continue
            ready = self.state.ready[p]
            card = next((c for c in ready if not c.endswith("relic")), ready[0])
            events += self.do(p, "discard", card)
        left = {key: value for key, value in moves.items() if value}
        assert not left, f"scripted moves not played: {left}"
        return events

    @property
    def result(self) -> dict[str, Any]:
        return RULES.result(self.state)

    def of_kind(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]


@pytest.fixture
def game():
    """Factory: game(**make_setup arguments) -> Game."""
    return lambda **kwargs: Game(make_setup(**kwargs))


@pytest.fixture
def setup_for():
    return make_setup


@pytest.fixture
def test_catalog():
    return catalog_object
