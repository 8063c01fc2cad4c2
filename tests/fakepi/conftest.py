"""The fake Raspberry Pi: `arcana-table` runs unmodified on umockdev device nodes.

    with fake_pi("pi5", "full-table") as pi:
        pi.place("stake-1", uid_for("seer_orb"), "seer_orb")
        done = pi.run("selftest", "--profile", "full-table")
        screens = pi.screens()        # what each fake OLED shows, decoded by OledChip

`testbed.py` (Debian's system python3, the only one with `gi`) builds the devices from the
wiring a profile describes; the command runs in its own process with `LD_PRELOAD` of
`gpio_shim.c` (compiled here into pytest's temporary directory) and umockdev's preload
library. The set-up installs umockdev, its GObject bindings and gcc with apt-get when it
is missing and we are root; otherwise the tests fail saying how to install them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.display.chip import OledChip
from hardware.profile import PROFILES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")
DEBIAN_PACKAGES = (
    "umockdev",
    "gir1.2-umockdev-1.0",
    "python3-gi",
    "gcc",
    "libc6-dev",
    "linux-libc-dev",
)
PRELOAD = "libumockdev-preload.so.0"
TEST_PROFILES = HERE / "profiles"
# A bound on how long one fake-Pi step may take before the test fails (never a timing assert).
PATIENCE_S = 30.0


def _missing_tools() -> list[str]:
    missing = []
    probe = "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"
    if (
        not SYSTEM_PYTHON.exists()
        or subprocess.run([str(SYSTEM_PYTHON), "-c", probe], capture_output=True).returncode
    ):
        missing.append("UMockdev's GObject bindings for /usr/bin/python3")
    if not any(Path("/usr").glob(f"lib*/**/{PRELOAD}")):
        missing.append(PRELOAD)
    if shutil.which("gcc") is None:
        missing.append("gcc")
    if not Path("/usr/include/linux/gpio.h").exists():
        missing.append("the kernel's GPIO header (linux-libc-dev)")
    return missing


def _ensure_debian_packages() -> None:
    if not _missing_tools():
        return
    is_root = getattr(os, "geteuid", lambda: -1)() == 0
    if is_root and shutil.which("apt-get"):
        quiet = {"stdout": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update", "-qq"], check=True, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", *DEBIAN_PACKAGES], check=True, **quiet)
    missing = _missing_tools()
    if missing:
        pytest.fail(
            f"The fake-Pi tests need {', '.join(missing)}: on Debian or Ubuntu run "
            f"`sudo apt-get install -y {' '.join(DEBIAN_PACKAGES)}`."
        )


PI_LIBRARIES = ("gpiod", "lgpio", "RPi.GPIO", "spidev")  # the `pi` extra's modules


def _ensure_pi_libraries() -> None:
    missing = [name for name in PI_LIBRARIES if importlib.util.find_spec(name) is None]
    if missing:
        pytest.fail(
            f"The fake-Pi tests run the Pi's own libraries, and {', '.join(missing)} "
            "is not installed here: run `.venv/bin/pip install -e '.[pi]'` (python3 dev.py "
            "test installs it when it can compile spidev)."
        )


@pytest.fixture(scope="session")
def gpio_shim(tmp_path_factory) -> Path:
    """The GPIO line-request shim, compiled for this run."""
    _ensure_pi_libraries()
    _ensure_debian_packages()
    out = tmp_path_factory.mktemp("fakepi") / "gpio_shim.so"
    done = subprocess.run(
        [
            "gcc",
            "-shared",
            "-fPIC",
            "-O1",
            "-Wall",
            "-o",
            str(out),
            str(HERE / "gpio_shim.c"),
            "-ldl",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"the GPIO shim does not compile:\n{done.stderr}"
    return out


# -- wiring: what the maker soldered, read from the profile's TOML --------------------------


def profile_path(name: str) -> Path:
    for folder in (TEST_PROFILES, PROFILES):
        if (folder / f"{name}.toml").exists():
            return folder / f"{name}.toml"
    raise FileNotFoundError(name)


def wiring_for(
    board: str,
    profile: str,
    *,
    spi: bool = True,
    i2c: bool = True,
    irq_wires: dict[str, int] | None = None,
) -> dict:
    """The devices a profile describes, as the testbed wires them (defaults as hardware.profile).
    `irq_wires`: readers whose IRQ wire the maker soldered to another GPIO than the profile's."""
    data = tomllib.loads(profile_path(profile).read_text())
    mux = data.get("mux")
    readers = []
    for entry in data.get("readers", []):
        interface = entry.get("interface", "spi")
        readers.append(
            {
                "role": entry["role"],
                "interface": interface,
                "bus": entry.get("bus", 0 if interface == "spi" else 1),
                "cs": entry.get("cs"),
                "irq": entry.get("irq"),
                "irq_wire": (irq_wires or {}).get(entry["role"], entry.get("irq")),
                "reset": entry.get("reset"),
                "req": entry.get("req"),
                "address": entry.get("address", 0x24),
                "mux_channel": entry.get("mux_channel"),
                "port": entry.get("port", "/dev/serial0"),
            }
        )
    displays = []
    for entry in data.get("displays", []):
        displays.append(
            {
                "role": entry["role"],
                "interface": entry.get("interface", "i2c"),
                "bus": entry.get("bus", 0 if entry.get("interface") == "spi" else 1),
                "address": entry.get("address", 0x3C),
                "mux_channel": entry.get("mux_channel"),
                "device": entry.get("device", 0),
                "dc": entry.get("dc", 24),
                "cs": entry.get("cs"),
                "size": [entry.get("width", 128), entry.get("height", 64)],
                "chip": entry.get("chip", "ssd1306"),
            }
        )
    return {
        "board": board,
        "mux": None
        if mux is None
        else {
            "address": mux.get("address", 0x70),
            "kernel": bool(mux.get("kernel") or mux.get("kernel_buses")),
        },
        "readers": readers,
        "displays": displays,
        "buttons": [entry["pin"] for entry in data.get("buttons", [])],
        "buzzer": data.get("buzzer", {}).get("pin"),
        "spi": spi,
        "i2c": i2c,
    }


# -- the fake Pi ----------------------------------------------------------------------------


class FakePi:
    """One running testbed and the `arcana-table` commands run on it."""

    def __init__(self, wiring: dict, shim: Path, workdir: Path) -> None:
        self.wiring = wiring
        self.workdir = workdir
        spec = workdir / "wiring.json"
        spec.write_text(json.dumps(wiring))
        self.log = (workdir / "testbed.log").open("w")
        self.process = subprocess.Popen(
            [str(SYSTEM_PYTHON), str(HERE / "testbed.py"), str(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        first = self.process.stdout.readline()
        if not first:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"the testbed did not start:\n{self.testbed_log()}")
        self.root = json.loads(first)["root"]
        self.env = self._environment(shim)
        self.at_exit: dict[str, dict] = {}  # header lines as the last command left them
        self._decoded: dict[str, tuple[OledChip, list[bytes], list[int]]] = {}

    def _environment(self, shim: Path) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("BLINKA_", "GPIOZERO_", "ARCANA_TABLE_", "RPI_LGPIO_"))
        }
        bin_dir = str(Path(sys.executable).parent)
        env.update(
            LD_PRELOAD=f"{shim} {PRELOAD}",
            UMOCKDEV_DIR=self.root,
            PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            ARCANA_TABLE_STATE_DIR=str(self.workdir / "state"),
            PYTHONUNBUFFERED="1",
        )
        return env

    def testbed_log(self) -> str:
        self.log.flush()
        return (self.workdir / "testbed.log").read_text()

    # -- the testbed's commands -----------------------------------------------------------

    def ask(self, op: str, **fields: Any) -> dict:
        self.process.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the testbed stopped:\n{self.testbed_log()}")
        answer = json.loads(line)
        assert answer["ok"], answer.get("error")
        return answer

    def place(self, reader: str, uid: str, card_id: str | None = None) -> None:
        self.ask("place", reader=reader, uid=uid, card_id=card_id)

    def tag_memory(self, reader: str, uid: str) -> bytes:
        """The whole memory of a tag lying on a fake reader."""
        return bytes.fromhex(self.ask("tag_memory", reader=reader, uid=uid)["memory"])

    def fail(self, reader: str, mode: str = "unplugged") -> None:
        """Inject one of EmulatedPN532's faults into a fake reader (until `recover`)."""
        self.ask("fail", reader=reader, mode=mode)

    def recover(self, reader: str) -> None:
        self.ask("recover", reader=reader)

    def unplug_display(self, role: str) -> None:
        """Pull a fake I2C OLED off its bus: its address stops answering (EREMOTEIO)."""
        self.ask("oled_present", role=role, present=False)

    def plug_display(self, role: str) -> None:
        self.ask("oled_present", role=role, present=True)

    def remove(self, reader: str, uid: str) -> None:
        self.ask("remove", reader=reader, uid=uid)

    def press(self, gpio: int) -> None:
        """A finger on a button wired from `gpio` to ground."""
        self.ask("drive", gpio=gpio, level=0)
        time.sleep(0.15)
        self.ask("drive", gpio=gpio, level=None)

    def report(self) -> dict:
        return self.ask("report")

    def screens(self) -> dict[str, bytes]:
        """What each fake OLED shows now (its pixels' bytes), decoded by the display emulator."""
        return {role: shown[-1] for role, shown in self.frame_history().items()}

    def frame_history(self) -> dict[str, list[bytes]]:
        """Every frame each OLED showed, in order: blank, then one after each data transfer.
        The byte streams are decoded as they grow, by one `OledChip` per display."""
        oleds = self.report()["oleds"]
        for display in self.wiring["displays"]:
            role = display["role"]
            if role not in self._decoded:
                chip = OledChip(display["chip"], *display["size"])
                self._decoded[role] = (chip, [chip.frame().tobytes()], [0])
            chip, shown, done = self._decoded[role]
            for kind, payload in oleds[role][done[0] :]:
                if kind == "command":
                    chip.command(bytes.fromhex(payload))
                else:
                    chip.data(bytes.fromhex(payload))
                    shown.append(chip.frame().tobytes())
            done[0] = len(oleds[role])
        return {role: shown for role, (_, shown, _) in self._decoded.items()}

    def showing(self, expected: dict[str, bytes]) -> Callable[[], bool]:
        """A condition for `wait_for`: every fake OLED shows exactly `expected` now."""
        return lambda: self.screens() == expected

    def mark(self) -> dict[str, int]:
        """Where each OLED's frame history stands, for `showed`."""
        return {role: len(shown) for role, shown in self.frame_history().items()}

    def showed(self, expected: dict[str, bytes], since: dict[str, int]) -> Callable[[], bool]:
        """A condition for `wait_for`: each OLED has shown its `expected` frame since `since`
        (a `mark()`); for what lasts only a few seconds, such as a notice."""

        def condition() -> bool:
            history = self.frame_history()
            return all(expected[role] in history[role][since[role] - 1 :] for role in expected)

        return condition

    # -- running the real thing -----------------------------------------------------------

    def start(self, *args: str) -> subprocess.Popen:
        """`arcana-table ARGS` on the fake Pi, running (stderr and stdout piped, text)."""
        return subprocess.Popen(
            [str(Path(sys.executable).parent / "arcana-table"), *args],
            env=self.env,
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def run(
        self, *args: str, on_stderr: Callable[[str], None] | None = None
    ) -> subprocess.CompletedProcess:
        """`arcana-table ARGS` to its end; `on_stderr` sees each stderr line as it comes."""
        process = self.start(*args)
        lines: list[str] = []

        def pump() -> None:
            for line in process.stderr:
                lines.append(line)
                if on_stderr is not None:
                    on_stderr(line)

        reader = threading.Thread(target=pump, daemon=True)
        reader.start()
        try:
            process.wait(timeout=PATIENCE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            reader.join(timeout=5)
            pytest.fail(f"arcana-table {' '.join(args)} hung on the fake Pi:\n{''.join(lines)}")
        reader.join(timeout=5)
        stdout = process.stdout.read()
        process.stdout.close()
        process.stderr.close()
        self.at_exit = self.report()["lines"]
        self.ask("reset_lines")  # the kernel frees a dead process's lines; umockdev cannot tell
        return subprocess.CompletedProcess(args, process.returncode, stdout, "".join(lines))

    def stop(self, process: subprocess.Popen) -> subprocess.CompletedProcess:
        """SIGTERM, as systemd stops the unit; the output once it has ended."""
        process.send_signal(signal.SIGTERM)
        try:
            stdout, stderr = process.communicate(timeout=PATIENCE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
            pytest.fail(f"arcana-table did not stop on SIGTERM:\n{stderr}")
        self.ask("reset_lines")
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.process.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.process.stdin.flush()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        self.log.close()


def wait_until(
    condition: Callable[[], bool], what: str, process: subprocess.Popen | None = None
) -> None:
    """Poll `condition` until it holds; fail naming `what` after PATIENCE_S, or at once if
    `process` (the command under test) has ended."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        if condition():
            return
        if process is not None and process.poll() is not None:
            pytest.fail(
                f"arcana-table ended (status {process.returncode}) before {what}:\n"
                f"{process.stderr.read()}"
            )
        time.sleep(0.2)
    pytest.fail(f"on the fake Pi, never: {what}")


@pytest.fixture
def wait_for() -> Callable[..., None]:
    """`wait_for(condition, what, process=None)`: see `wait_until`."""
    return wait_until


@pytest.fixture
def profile_file() -> Callable[[str], Path]:
    """`profile_file(name)`: a shipped profile's TOML, or one of tests/fakepi/profiles."""
    return profile_path


@pytest.fixture
def fake_pi(gpio_shim, tmp_path) -> Iterator[Callable[..., FakePi]]:
    """`fake_pi(board, profile, spi=True, i2c=True, irq_wires=None)` -> a running FakePi
    (closed afterwards); see `wiring_for`."""
    made: list[FakePi] = []

    def make(board: str, profile: str, **wiring: Any) -> FakePi:
        workdir = tmp_path / f"{board}-{profile}-{len(made)}"
        workdir.mkdir()
        pi = FakePi(wiring_for(board, profile, **wiring), gpio_shim, workdir)
        made.append(pi)
        return pi

    yield make
    for pi in made:
        pi.close()


class SelftestRun:
    """One `arcana-table selftest` on a fake Pi, a tag lying on the first reader, a finger
    pressing each button it asks for; what came out and what the devices saw."""

    def __init__(self, pi: FakePi, profile: str) -> None:
        self.profile = profile_path(profile)
        self.tagged = pi.wiring["readers"][0]["role"]
        pi.place(self.tagged, "04a1b2c3d4e5f6", "seer_orb")
        self.done = pi.run("selftest", "--profile", str(self.profile), on_stderr=self._finger(pi))
        self.report = pi.report()
        self.at_exit = pi.at_exit  # the header lines as the command left them
        self.frames = pi.frame_history()
        self.testbed_log = pi.testbed_log()

    @staticmethod
    def _finger(pi: FakePi) -> Callable[[str], None]:
        def on_stderr(line: str) -> None:
            asked = re.search(r"press the \w+ button \(GPIO(\d+)\)", line)
            if asked:
                pi.press(int(asked[1]))

        return on_stderr


@pytest.fixture(scope="session")
def selftest_on(gpio_shim, tmp_path_factory) -> Iterator[Callable[[str, str], SelftestRun]]:
    """`selftest_on(board, profile)`: the self-test's run, made once per session."""
    runs: dict[tuple[str, str], SelftestRun] = {}
    pis: list[FakePi] = []

    def get(board: str, profile: str) -> SelftestRun:
        if (board, profile) not in runs:
            workdir = tmp_path_factory.mktemp(f"selftest-{board}-{profile}")
            pi = FakePi(wiring_for(board, profile), gpio_shim, workdir)
            pis.append(pi)
            try:
                runs[board, profile] = SelftestRun(pi, profile)
            finally:
                pi.close()
        return runs[board, profile]

    yield get
