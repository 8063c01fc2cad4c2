"""Table profiles: one TOML file describes a table's readers, displays, buttons and options.

`load_profile("full-table")` (a shipped profile) or `load_profile("my-table.toml")` returns a
checked `Profile`; anything wrong raises `ProfileError`, whose message names the file, the
line and the problem for every mistake found (duplicate pin, unknown role, two devices on
one address, bad values). The format is described in docs/hardware.md.

The package, along its seams: `specs` (the checked values: `Profile`, `ReaderSpec`, ...),
`loading` (by name or path, `parse_profile`), `lines` (TOML text and where its lines are),
`values` (typed values with their lines), `checker` (the rules of a table), `messages`
(`ProfileError` and its phrases), `web` (the `[web]` section). The Pi header's pins come
from `hardware.header`.
"""

from hardware.header import GPIO_PINS, I2C_PINS, SPI_CE_PINS, SPI_PINS, UART_PINS
from hardware.profile.loading import PROFILES, load_profile, parse_profile, profile_names
from hardware.profile.messages import ProfileError
from hardware.profile.specs import (
    BUTTON_ROLES,
    DIGITS,
    DISPLAY_ROLES,
    LANGUAGES,
    MIN_SEATS,
    PAD_ROLES,
    SEATS,
    ButtonSpec,
    BuzzerSpec,
    EncoderSpec,
    MuxSpec,
    Profile,
    ReaderSpec,
)
from hardware.profile.values import KEYS, SECTIONS

__all__ = [
    "BUTTON_ROLES",
    "DIGITS",
    "DISPLAY_ROLES",
    "GPIO_PINS",
    "I2C_PINS",
    "KEYS",
    "LANGUAGES",
    "MIN_SEATS",
    "PAD_ROLES",
    "PROFILES",
    "SEATS",
    "SECTIONS",
    "SPI_CE_PINS",
    "SPI_PINS",
    "UART_PINS",
    "ButtonSpec",
    "BuzzerSpec",
    "EncoderSpec",
    "MuxSpec",
    "Profile",
    "ProfileError",
    "ReaderSpec",
    "load_profile",
    "parse_profile",
    "profile_names",
]
