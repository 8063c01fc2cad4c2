"""One entry point: any screen model to the image of one display.

>>> from firmware.screens.models import RefusalScreen
>>> render(RefusalScreen("Thieves to play")).size
(128, 64)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware.language import current, using
from firmware.language import digits as digits_now
from firmware.screens import arcana, general, resarcana
from firmware.screens import models as m

Size = tuple[int, int]
SIZE_128X64: Size = (128, 64)
SIZE_128X32: Size = (128, 32)
SIZES = (SIZE_128X64, SIZE_128X32)

RENDERERS: dict[type, Callable[[Any, Size], Image.Image]] = {
    m.StakeScreen: arcana.render_stake,
    m.EmptyStakeScreen: arcana.render_empty_stake,
    m.StruggleScreen: arcana.render_struggle,
    m.BribeScreen: arcana.render_bribe,
    m.ArcanaStatusScreen: arcana.render_arcana_status,
    m.RoundResultsScreen: arcana.render_round_results,
    m.RankingScreen: arcana.render_ranking,
    m.BreakdownScreen: arcana.render_breakdown,
    m.SeatScreen: resarcana.render_seat,
    m.ResStatusScreen: resarcana.render_res_status,
    m.ProductionScreen: resarcana.render_production,
    m.VictoryCheckScreen: resarcana.render_victory_check,
    m.PromptScreen: general.render_prompt,
    m.RefusalScreen: general.render_refusal,
    m.DeviceTroubleScreen: general.render_device_trouble,
    m.UnknownCardScreen: general.render_unknown_card,
    m.ChoiceScreen: general.render_choice,
    m.SavedScreen: general.render_saved,
    m.UndoScreen: general.render_undo,
}


def render(
    screen: m.Screen,
    size: Size = SIZE_128X64,
    language: str | None = None,
    digits: str | None = None,
) -> Image.Image:
    """The mode "1" image of a screen model on a display of the given size (128x64 or
    128x32), its own words in `language` (None: the current one, see `firmware.language`),
    its numbers in `digits` ("persian": ۰-۹ in a right-to-left language; None: as the
    current context says, "latin" unless the table profile asks). Pure: the same model,
    size, language and digits always give the same pixels.

    The companion redraws every screen after every event, and most of them have not changed:
    images of recent models are kept (models are frozen, so a model is its own key) and a copy
    is handed out, so a caller may draw on it.
    """
    if size not in SIZES:
        raise ValueError(f"screens are drawn for 128x64 or 128x32 displays, not {size}")
    if type(screen) not in RENDERERS:
        raise TypeError(f"{type(screen).__name__} is not a screen model")
    code = language or current().code
    with using(code, digits):
        style = digits_now()
    try:
        return _cached(screen, size, code, style).copy()
    except TypeError:  # a model holding a list: not hashable, draw it afresh
        return _draw(screen, size, code, style)


@functools.lru_cache(maxsize=256)
def _cached(screen: m.Screen, size: Size, code: str, style: str) -> Image.Image:
    return _draw(screen, size, code, style)


def _draw(screen: m.Screen, size: Size, code: str, style: str) -> Image.Image:
    with using(code, style):
        return RENDERERS[type(screen)](screen, size)
