"""One physical step at a table: a card tapped on a pad, or a button pressed (or held).

    Step.tap("stake-2", "blades_agent_3")
    Step.press("ok")
    Step.press("undo", held=True)          # Undo held down redoes
    top.perform(step)                      # top: a firmware.tabletop.EmulatedTable
    step.caption                           # "tap on stake-2", "press ok", "hold undo"

Both games' bots answer steps, the demo performs and captions them, the simulator's set-up
and the tests play them. The caption never names the card: it may go face down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Step:
    """`kind` "tap": `card` on the pad `target`; "press": the button `target`, `held` past
    its hold time or not."""

    kind: Literal["tap", "press"]
    target: str  # the pad tapped, or the button pressed
    card: str | None = None  # a tap's card id
    held: bool = False  # a press held down

    def __post_init__(self) -> None:
        if self.kind == "tap" and (self.card is None or self.held):
            raise ValueError(f"a tap puts a card on a pad and is never held: {self!r}")
        if self.kind == "press" and self.card is not None:
            raise ValueError(f"a press names no card: {self!r}")
        if self.kind not in ("tap", "press"):
            raise ValueError(f'a step is a "tap" or a "press", not {self.kind!r}')

    @classmethod
    def tap(cls, pad: str, card: str) -> Step:
        return cls("tap", pad, card)

    @classmethod
    def press(cls, button: str, held: bool = False) -> Step:
        return cls("press", button, held=held)

    @property
    def caption(self) -> str:
        """The step in a few words, without the card."""
        if self.kind == "tap":
            return f"tap on {self.target}"
        return f"{'hold' if self.held else 'press'} {self.target}"


__all__ = ["Step"]
