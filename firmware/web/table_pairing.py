"""Pairing the owner's phone from the table itself: hold Select on the game choice.

    loop.companion.pair_phone = owner_code(pairing)    # firmware/web/serve.py

The game choice answers a held Select with `PairPhone` (firmware/controllers/chooser.py);
the companion calls `pair_phone` on the table loop's thread, then redraws, so the status
display's `QrOverlay` shows the new code's QR code at once, as after `arcana-table pair`.
Held again while that owner's code is open, it closes it (the status screen comes back).
Whoever can reach the table's buttons may pair an owner, as whoever can run its commands:
the owner's page lists every paired phone and revokes any.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware.web.pairing import Pairing, Role


def owner_code(pairing: Pairing) -> Callable[[], None]:
    """The companion's `pair_phone`: open the owner's code, or close it if it is open."""

    def toggle() -> None:
        offer = pairing.pending()
        if offer is not None and offer.role == Role.owner():
            pairing.withdraw()
        else:
            pairing.offer(Role.owner())

    return toggle
