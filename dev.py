#!/usr/bin/env python3
"""Set up `.venv` (once, and again only when pyproject.toml changes) and run a task in it.

    python3 dev.py demo    # play a demo game on emulated hardware
    python3 dev.py test    # run the whole test suite
    python3 dev.py arcana-table ARGS...   # any command of the project

Only the Python 3.11+ standard library is needed to start it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".arcana-table-installed"
EXTRAS = "dev"


def _bin(name: str) -> Path:
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def _fingerprint() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    digest.update(sys.version.encode())
    digest.update(EXTRAS.encode())
    return digest.hexdigest()


def ensure_venv() -> None:
    """Create the virtual environment and install the project; a no-op when up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"arcana-table needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    wanted = _fingerprint()
    if STAMP.exists() and STAMP.read_text() == wanted and _bin("arcana-table").exists():
        return
    if not _bin("python").exists():
        print("creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing arcana-table and its dependencies into .venv ...", file=sys.stderr)
    pip = [str(_bin("python")), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "-e", f"{ROOT}[{EXTRAS}]"], check=True)
    STAMP.write_text(wanted)


TASKS = {
    "demo": ["arcana-table", "demo"],
    "test": ["pytest"],
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return 0 if argv else 2
    task, rest = argv[0], argv[1:]
    command = TASKS.get(task, [task])
    ensure_venv()
    executable = _bin(command[0])
    if not executable.exists():
        print(f"unknown task {task!r}; try: {', '.join(TASKS)}", file=sys.stderr)
        return 2
    env = dict(os.environ, PATH=f"{executable.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.call([str(executable), *command[1:], *rest], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
