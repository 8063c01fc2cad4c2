"""`RULES`: the Res Arcana game as `engine.protocol.Rules`, for records, bots and benchmarks."""

from __future__ import annotations

from engine.resarcana.actions import decode, encode
from engine.resarcana.rules import apply, legal_actions
from engine.resarcana.setup import from_record
from engine.resarcana.state import is_terminal
from engine.resarcana.view import result


class ResArcanaRules:
    """The rules object of `engine.protocol.Rules` for "res-arcana".

    Its methods are the engine's functions themselves (no wrapper call in between, which
    playouts would pay for at every step)."""

    name = "res-arcana"
    setup = staticmethod(from_record)
    decode_action = staticmethod(decode)
    encode_action = staticmethod(encode)
    apply = staticmethod(apply)
    legal_actions = staticmethod(legal_actions)
    is_terminal = staticmethod(is_terminal)
    result = staticmethod(result)


RULES = ResArcanaRules()
