"""`arcana-table bench appliance`: start-up to ready, memory, and SIGTERM to exit.

Starts `arcana-table run --emulated` as systemd would (a $NOTIFY_SOCKET to answer READY=1)
on a journal holding a game in progress, so start-up includes resuming it; memory is the
resident set (VmRSS, and its peak VmHWM) once the screens show the game.

`--web` turns the profile's `[web]` on (the owner's web app on a free localhost port);
`--phones N` then pairs N seats' phones, which stream from it (another process, as in
`bench companion --phones`) and have each fetched their state before memory is read.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="start-ups to measure (default 5)")
    parser.add_argument("--game", choices=("arcana", "res-arcana"), default="arcana")
    parser.add_argument("--actions", type=int, default=60, help="actions already played")
    parser.add_argument("--web", action="store_true", help="with the owner's web app on")
    parser.add_argument(
        "--phones",
        type=int,
        choices=range(0, 9),
        default=0,
        metavar="N",
        help="with --web: paired seats' phones streaming (0-8, default 0)",
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    ready, rss, hwm, stop = [], [], [], []
    phones = args.phones if args.web else 0
    with tempfile.TemporaryDirectory(prefix="arcana-appliance-") as scratch:
        state = Path(scratch) / "state"
        played = journal_game_in_progress(state, args.game, args.actions)
        profile = web_profile(Path(scratch)) if args.web else None
        for n in range(args.runs):
            notify = Path(scratch) / f"notify-{n}.sock"
            figures = start_and_stop(state, notify, profile, phones)
            ready.append(figures["ready_s"])
            rss.append(figures["rss_mb"])
            hwm.append(figures["hwm_mb"])
            stop.append(figures["stop_s"])
    return {
        "benchmark": "appliance",
        "game": args.game,
        "actions_resumed": played,
        "web": args.web,
        "phones": phones,
        "runs": args.runs,
        "startup_to_ready_s_median": round(statistics.median(ready), 3),
        "startup_to_ready_s_max": round(max(ready), 3),
        "rss_mb_median": round(statistics.median(rss), 1),
        "peak_rss_mb_max": round(max(hwm), 1),
        "sigterm_to_exit_s_median": round(statistics.median(stop), 3),
    }


def journal_game_in_progress(state: Path, game: str, actions: int) -> int:
    """A journal with one unfinished game of `actions` random legal actions."""
    import importlib

    from engine.records import GAMES
    from firmware.journal import Journal

    module = importlib.import_module(GAMES[game])
    rules = module.RULES
    rng = random.Random(7)
    setup = module.random_setup(rng, 3)
    state_now = rules.setup(setup)
    played = 0
    with Journal.open(state) as journal:
        game_id = journal.start(game, setup)
        while played < actions and not module.is_terminal(state_now):
            action = rng.choice(rules.legal_actions(state_now))
            state_now = rules.apply(state_now, action).state
            journal.append(game_id, rules.encode_action(action))
            played += 1
    return played


def web_profile(scratch: Path) -> tuple[Path, int]:
    """The full table's profile with `[web]` on, on a port free now; (file, port)."""
    from hardware.profile.loading import PROFILES

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    text = (PROFILES / "full-table.toml").read_text()
    profile = scratch / "web-table.toml"
    profile.write_text(f"{text}\n[web]\nenabled = true\nport = {port}\n")
    return profile, port


def start_and_stop(
    state: Path, address: Path, profile: tuple[Path, int] | None = None, phones: int = 0
) -> dict[str, float]:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(address))
    listener.settimeout(30)
    command = [sys.executable, "-m", "firmware", "run", "--emulated", "--state-dir", str(state)]
    if profile is not None:
        command += ["--profile", str(profile[0])]
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        env=dict(os.environ, NOTIFY_SOCKET=str(address)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(listener, "READY=1")
        ready = time.perf_counter() - started
        with streaming_phones(state, profile[1] if profile else 0, phones):
            rss, hwm = _memory(process.pid)
        stopping = time.perf_counter()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        stop = time.perf_counter() - stopping
    finally:
        process.kill()
        listener.close()
    return {"ready_s": ready, "rss_mb": rss, "hwm_mb": hwm, "stop_s": stop}


@contextlib.contextmanager
def streaming_phones(state: Path, port: int, phones: int) -> Iterator[None]:
    """`phones` seats paired and streaming, each with its state fetched once, meanwhile."""
    if not phones:
        yield
        return
    from firmware.web.pairing import Pairing, Role

    pairing = Pairing(state)
    tokens = []
    for n in range(phones):
        offer = pairing.offer(Role.of_seat(1 + n % 3))
        tokens.append(pairing.redeem(offer.code, f"bench phone {n + 1}")[1])
    url = f"http://127.0.0.1:{port}/"
    client = subprocess.Popen(
        [sys.executable, "-m", "firmware.benchmarks.phone_client", url, *tokens],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert client.stdout is not None
        fetched: set[str] = set()
        while len(fetched) < phones:
            line = client.stdout.readline()
            if not line or line.startswith("failed"):
                raise RuntimeError(f"a bench phone failed: {line.strip() or 'it stopped'}")
            if line.startswith("fetched"):
                fetched.add(line.split()[1])
        yield
    finally:
        client.kill()
        client.wait()


def _wait_for(listener: socket.socket, wanted: str) -> None:
    while wanted not in listener.recv(4096).decode().split("\n"):
        pass


def _memory(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
