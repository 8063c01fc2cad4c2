"""Random games through the public API: the benchmark policy, and a source of test games."""

from __future__ import annotations

import random
from typing import Any

from engine.resarcana.game import RULES
from engine.resarcana.setup import build, random_setup
from engine.resarcana.state import FINISHED, ROUND

PASS_CHANCE = 0.15
# A random game that has not ended after this many actions is given up and reported with
# finished = False: random play sometimes strands every player without the essences any VP
# source asks for, and the rules do not end such a game. (Of 3,000 random games the longest
# that finished took 152 actions; 80 never would.)
MAX_ACTIONS = 1000


def random_playout(rng: random.Random, players: int) -> dict[str, Any]:
    """Play one random game: when other actions exist, pass with probability 0.15, otherwise
    a uniformly random legal action. Legal actions are generated at every step.

    Returns {"actions", "rounds", "finished", "setup", "moves", "state"}.
    """
    setup = random_setup(rng, players)
    state = build(setup)  # a random deal always fits: no need to check it
    moves = []
    legal_actions, apply, random_ = RULES.legal_actions, RULES.apply, rng.random
    for _ in range(MAX_ACTIONS):
        legal = legal_actions(state)
        options = len(legal)
        if not options:  # the game is over
            break
        if options > 1 and random_() < PASS_CHANCE:
            action = legal[-1]  # pass is always last
        else:
            action = legal[int(random_() * options)]
        state = apply(state, action).state
        moves.append(action)
    return {
        "actions": len(moves),
        "rounds": state[ROUND],
        "finished": state[FINISHED],
        "setup": setup,
        "moves": moves,
        "state": state,
    }
