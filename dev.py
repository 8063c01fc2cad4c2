#!/usr/bin/env python3
"""Set up `.venv` (once, and again only when pyproject.toml changes) and run a task in it.

    python3 dev.py sim     # the table in a web browser (prints the address to open)
    python3 dev.py demo    # play a demo game on emulated hardware
    python3 dev.py test    # run the whole test suite (browser tests need Debian's chromium)
    python3 dev.py mutate TARGET   # mutation testing of a package or module (mutate.py)
    python3 dev.py structure       # module count, biggest files, import circles (structure.py)
    python3 dev.py arcana-table ARGS...   # any command of the project

Only the Python 3.11+ standard library is needed to start it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".arcana-table-installed"
EXTRAS = "dev,sim"
# The Pi's own libraries (gpiod, lgpio, rpi-lgpio, spidev), for the fake-Pi tests: Linux only,
# and spidev is compiled, which takes a C compiler and Python's headers.
PI_EXTRA = "pi"
BUILD_PACKAGES = ("gcc", "python3-dev")
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM = Path(os.environ.get("ARCANA_TABLE_CHROMIUM", DEBIAN_CHROMIUM))


def _bin(name: str) -> Path:
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(sys.version.encode())
    digest.update(extras.encode())
    return digest.hexdigest()


def _can_compile() -> bool:
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which("gcc") is not None and headers.exists()


def extras(task: str) -> str:
    """dev and sim; on Linux also pi when spidev can be compiled. For the tests, as root,
    gcc and python3-dev are installed with apt-get first (as chromium is)."""
    if not sys.platform.startswith("linux"):
        return EXTRAS
    is_root = getattr(os, "geteuid", lambda: -1)() == 0
    if task == "test" and not _can_compile() and is_root and shutil.which("apt-get"):
        print("installing gcc and Python's headers for the fake-Pi tests ...", file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *BUILD_PACKAGES], check=True)
    if _can_compile():
        return f"{EXTRAS},{PI_EXTRA}"
    if task == "test":
        print(
            "The fake-Pi tests need the Pi's libraries, and spidev needs a compiler: run "
            f"`sudo apt-get install -y {' '.join(BUILD_PACKAGES)}`, then this again.",
            file=sys.stderr,
        )
    return EXTRAS


def ensure_venv(task: str = "") -> None:
    """Create the virtual environment and install the project; a no-op when up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"arcana-table needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    chosen = extras(task)
    wanted = _fingerprint(chosen)
    if STAMP.exists() and STAMP.read_text() == wanted and _bin("arcana-table").exists():
        return
    if not _bin("python").exists():
        print("creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing arcana-table and its dependencies into .venv ...", file=sys.stderr)
    pip = [str(_bin("python")), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "-e", f"{ROOT}[{chosen}]"], check=True)
    STAMP.write_text(wanted)


def ensure_chromium() -> None:
    """The browser tests drive Debian's chromium (Playwright cannot download browsers here):
    install it with apt-get when it is missing and we are root, else say how."""
    if CHROMIUM.exists():
        return
    is_root = getattr(os, "geteuid", lambda: -1)() == 0
    if CHROMIUM == DEBIAN_CHROMIUM and is_root and shutil.which("apt-get"):
        print("installing Debian's chromium for the browser tests ...", file=sys.stderr)
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(["apt-get", "install", "-y", "chromium"], check=True)
        return
    sys.exit(
        f"The browser tests need chromium at {CHROMIUM}. On Debian or Ubuntu run "
        "`sudo apt-get install -y chromium`; elsewhere point ARCANA_TABLE_CHROMIUM at a "
        "Chromium or Chrome executable."
    )


TASKS = {
    "sim": ["arcana-table", "sim"],
    "demo": ["arcana-table", "demo"],
    "test": ["pytest"],
    "mutate": ["python", str(ROOT / "mutate.py")],
    "structure": ["python", str(ROOT / "structure.py")],
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return 0 if argv else 2
    task, rest = argv[0], argv[1:]
    command = TASKS.get(task, [task])
    ensure_venv(task)
    if task == "test":
        ensure_chromium()
    executable = _bin(command[0])
    if not executable.exists():
        print(f"unknown task {task!r}; try: {', '.join(TASKS)}", file=sys.stderr)
        return 2
    env = dict(os.environ, PATH=f"{executable.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.call([str(executable), *command[1:], *rest], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
