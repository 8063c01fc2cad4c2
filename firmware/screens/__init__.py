"""The companion's screens: plain-data models and pure renderers to 128x64 (or 128x32)
one-colour images, in bitmap fonts and icons kept in this package.

    >>> from firmware.screens import RefusalScreen, render, text_art
    >>> image = render(RefusalScreen("Thieves to play"))
    >>> image.mode, image.size
    ('1', (128, 64))

The controller builds the models from the engine's view; nothing here imports the engines or
the hardware. See docs/screens.md for every screen as a picture.
"""

from firmware.screens.models import (
    ArcanaStatusScreen,
    Arcanum,
    BreakdownScreen,
    BribeScreen,
    ChoiceScreen,
    DeviceTroubleScreen,
    EmptyStakeScreen,
    Essence,
    Essences,
    GuildAtStake,
    HandCount,
    ProductionScreen,
    PromptIcon,
    PromptScreen,
    RankedPlayer,
    RankingScreen,
    RefusalScreen,
    ResStatusScreen,
    RoundResultsScreen,
    SavedScreen,
    ScoreLine,
    Screen,
    SeatScreen,
    StakeScreen,
    Strength,
    StruggleScreen,
    UndoScreen,
    UnknownCardScreen,
    VictoryCheckScreen,
    guild_at_stake,
)
from firmware.screens.render import RENDERERS, SIZE_128X32, SIZE_128X64, SIZES, render
from firmware.screens.text_art import text_art

__all__ = [
    "RENDERERS",
    "SIZES",
    "SIZE_128X32",
    "SIZE_128X64",
    "ArcanaStatusScreen",
    "Arcanum",
    "BreakdownScreen",
    "BribeScreen",
    "ChoiceScreen",
    "DeviceTroubleScreen",
    "EmptyStakeScreen",
    "Essence",
    "Essences",
    "GuildAtStake",
    "HandCount",
    "ProductionScreen",
    "PromptIcon",
    "PromptScreen",
    "RankedPlayer",
    "RankingScreen",
    "RefusalScreen",
    "ResStatusScreen",
    "RoundResultsScreen",
    "SavedScreen",
    "ScoreLine",
    "Screen",
    "SeatScreen",
    "StakeScreen",
    "Strength",
    "StruggleScreen",
    "UndoScreen",
    "UnknownCardScreen",
    "VictoryCheckScreen",
    "guild_at_stake",
    "render",
    "text_art",
]
