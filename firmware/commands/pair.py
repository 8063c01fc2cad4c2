"""`arcana-table pair`: open a one-time pairing code for the owner's phone and print its URL.

The running table (`arcana-table run` with `[web] enabled = true`) shows the code's QR code
on its status screen until a phone uses it or `CODE_S` seconds pass; this command prints the
same URL and QR code in the terminal. `--list` shows the paired phones, `--revoke ID`
unpairs one (a lost phone). The pairing file lives in the state directory (docs/web.md).
"""

from __future__ import annotations

import argparse
import sys

from firmware import state_dir
from firmware.commands.refusal import refuse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", default="full-table", help="table profile (its [web] port and switch)"
    )
    parser.add_argument(
        "--address",
        default=None,
        help="the table's address for the URL (default: the profile's [web] address, else its own)",
    )
    parser.add_argument("--list", action="store_true", help="list the paired phones")
    parser.add_argument("--revoke", metavar="ID", default=None, help="unpair the phone ID")
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    from firmware.web.pairing import Pairing, PairingRefused, Role
    from hardware.profile import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except (ProfileError, OSError) as err:
        return refuse(f"arcana-table pair: {err}")
    pairing = Pairing(state_dir.resolve(args.state_dir))
    try:
        if args.list:
            for device in pairing.devices():
                print(f"{device.id}  {device.role.label:<10} {device.name}")
            return 0
        if args.revoke is not None:
            gone = pairing.revoke(args.revoke)
            print(f"Unpaired {gone.name} ({gone.role.label}); its cookie is refused from now on")
            return 0
        if not profile.web.enabled:
            return refuse(
                f"arcana-table pair: {profile.source} does not serve the web app: "
                "add [web] enabled = true to it and restart the table"
            )
        offer = pairing.offer(Role.owner())
    except (PairingRefused, OSError) as err:
        return refuse(f"arcana-table pair: {getattr(err, 'message', err)}")
    import segno

    from firmware.web.app import pairing_url
    from firmware.web.qr import qr_text
    from firmware.web.serve import table_address

    address = args.address or profile.web.address or table_address()
    url = pairing_url(address, profile.web.port, offer.code)
    minutes = round(pairing.code_s / 60)
    print(f"Open on the owner's phone within {minutes} minutes (or scan the status screen):")
    print(url)
    if sys.stdout.isatty():
        segno.make(qr_text(url), error="l", micro=False).terminal(compact=True)
    return 0
