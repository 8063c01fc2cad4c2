"""The service unit, checked with the machine's own systemd tools (systemd 252 on CI).

`systemd-analyze security --offline=yes` scores the hardening; `systemd-analyze verify`
runs against a throwaway root holding the unit, a stand-in `arcana-table` executable and a
copy of the system's units (verify insists that ExecStart= exists and that the targets the
unit names are loadable); `systemd-sysusers --root` creates the service user in a throwaway
/etc. Nothing touches the real system.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "arcana-table.service"
SYSUSERS = ROOT / "systemd" / "arcana-table.sysusers"
README = ROOT / "systemd" / "README.md"
WEB_DROPIN = ROOT / "systemd" / "web.conf"
WEB_SOCKET = ROOT / "systemd" / "arcana-table-web.socket"
WEB_DOC = ROOT / "docs" / "web.md"
PI_SETUP = ROOT / "docs" / "pi-setup.md"
EXPOSURE_LIMIT = 1.0  # with the web app's socket unit and drop-in too (docs/web.md)
# Loopback, link-local and the private ranges (RFC 1918 and IPv6 unique local), nothing else.
LOCAL_NETWORKS = {
    "localhost",
    "link-local",
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "fc00::/7",
}
EXECUTABLE = "/opt/arcana-table/bin/arcana-table"


def systemd_tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} (systemd) is needed to check the unit: apt install systemd"
    return path


def unit_settings(text: str) -> dict[str, list[str]]:
    """`Section.Key` -> values in order (systemd keys may repeat, configparser cannot)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def security(unit: Path | str, root: Path | None = None) -> tuple[float, str]:
    """The score of a unit file, or (with `root`) of the unit by name as installed in that
    root, drop-ins in `etc/systemd/system/NAME.d/` included."""
    where = [f"--root={root}"] if root else []
    analyze = systemd_tool("systemd-analyze")
    done = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", *where, str(unit)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1)), done.stdout


def flagged_settings(report: str) -> list[str]:
    """The settings the security report marks with ✗ (each costs exposure)."""
    return [line.split()[1].split("=")[0] for line in report.splitlines() if line.startswith("✗")]


@pytest.fixture
def fake_root(tmp_path) -> Path:
    """A root holding the unit, a stand-in executable and a copy of the system's units."""
    units = Path("/usr/lib/systemd/system")
    assert units.is_dir(), "systemd's unit directory /usr/lib/systemd/system is missing"
    shutil.copytree(units, tmp_path / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, tmp_path / "etc/systemd/system" / UNIT.name)
    executable = tmp_path / EXECUTABLE.lstrip("/")
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    return tmp_path


def verify(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [systemd_tool("systemd-analyze"), "verify", f"--root={root}", UNIT.name],
        capture_output=True,
        text=True,
    )


def test_exposure_is_at_most_one():
    exposure, report = security(UNIT)
    assert exposure <= EXPOSURE_LIMIT, report
    threshold = subprocess.run(
        [
            systemd_tool("systemd-analyze"),
            "security",
            "--offline=yes",
            f"--threshold={int(EXPOSURE_LIMIT * 10)}",
            str(UNIT),
        ],
        capture_output=True,
    )
    assert threshold.returncode == 0


def test_the_score_would_catch_a_unit_without_hardening(tmp_path):
    bare = tmp_path / UNIT.name
    bare.write_text(f"[Service]\nType=notify\nExecStart={EXECUTABLE} run\n")
    exposure, _ = security(bare)
    assert exposure > EXPOSURE_LIMIT


def test_every_setting_the_analysis_flags_is_explained_in_the_readme():
    _, report = security(UNIT)
    flagged = flagged_settings(report)
    assert flagged, "the report lists no ✗ lines: its format changed, update this test"
    readme = README.read_text(encoding="utf-8")
    unexplained = [name for name in flagged if f"`{name}" not in readme]
    assert unexplained == []


def test_verify_finds_nothing_to_complain_about(fake_root):
    done = verify(fake_root)
    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == ""


def test_verify_would_catch_a_mistyped_setting(fake_root):
    unit = fake_root / "etc/systemd/system" / UNIT.name
    unit.write_text(unit.read_text().replace("KillSignal=SIGTERM", "KillSignal=SIGTREM"))
    assert "SIGTREM" in verify(fake_root).stderr


def test_verify_would_catch_a_missing_executable(fake_root):
    (fake_root / EXECUTABLE.lstrip("/")).unlink()
    done = verify(fake_root)
    assert done.returncode != 0
    assert "is not executable" in done.stderr


def test_the_service_is_notify_type_with_a_watchdog_and_restart():
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["Service.Type"] == ["notify"]
    assert settings["Service.NotifyAccess"] == ["main"]
    assert int(settings["Service.WatchdogSec"][0]) > 0
    assert settings["Service.Restart"] == ["on-failure"]
    assert settings["Service.KillSignal"] == ["SIGTERM"]
    assert settings["Service.TimeoutStopSec"] == ["5"]
    assert settings["Install.WantedBy"] == ["multi-user.target"]


def test_the_service_runs_the_table_from_the_venv_with_its_state_directory():
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    (command,) = settings["Service.ExecStart"]
    assert command.split() == [
        EXECUTABLE,
        "run",
        "--profile",
        "/etc/arcana-table/profile.toml",
        "--state-dir",
        "${STATE_DIRECTORY}",
    ]
    assert settings["Service.StateDirectory"] == ["arcana-table"]
    assert settings["Service.WorkingDirectory"] == ["/var/lib/arcana-table"]
    # The build guide installs the venv where ExecStart= looks for it.
    guide = PI_SETUP.read_text(encoding="utf-8")
    assert "python3 -m venv" in guide
    assert EXECUTABLE.removesuffix("/bin/arcana-table") in guide


def test_the_service_user_is_in_the_device_groups_and_may_open_only_their_devices():
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["Service.User"] == ["arcana-table"]
    groups = set(settings["Service.SupplementaryGroups"][0].split())
    assert groups == {"gpio", "i2c", "spi", "dialout"}
    assert settings["Service.DevicePolicy"] == ["closed"]
    assert all(entry.endswith(" rw") for entry in settings["Service.DeviceAllow"])
    # No library of the table opens /dev/gpiomem any more (rpi-lgpio, gpiod: /dev/gpiochipN).
    assert not [e for e in settings["Service.DeviceAllow"] if "gpiomem" in e]


def _uart_profile(port: str) -> str:
    return f'[[readers]]\nrole = "main"\ninterface = "uart"\nport = "{port}"\n'


PROFILE_TEXTS = {
    "spi-oled": '[[displays]]\nrole = "main"\ninterface = "spi"\ndc = 24\n',
    "header-uart": _uart_profile("/dev/serial0"),
    "pi5-uart0": _uart_profile("/dev/ttyAMA0"),
    "usb-serial": _uart_profile("/dev/ttyUSB0"),
    "usb-acm": _uart_profile("/dev/ttyACM0"),
}


@pytest.mark.parametrize("name", ["full-table", "minimal", *PROFILE_TEXTS])
def test_the_unit_allows_every_device_the_profile_opens_and_its_group(name):
    from hardware.buses.devices import device_classes
    from hardware.profile import load_profile, parse_profile

    text = PROFILE_TEXTS.get(name)
    profile = parse_profile(text) if text else load_profile(name)
    needed = device_classes(profile)
    assert needed, "a profile opens at least one device"
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    allowed = {entry.split()[0] for entry in settings["Service.DeviceAllow"]}
    assert {f"char-{kind}" for kind in needed} <= allowed
    groups = set(settings["Service.SupplementaryGroups"][0].split())
    assert set(needed.values()) <= groups
    sysusers = SYSUSERS.read_text(encoding="utf-8")
    assert all(f"m arcana-table {group}" in sysusers for group in needed.values())


def test_a_uart_profile_needs_the_serial_classes_and_dialout():
    from hardware.buses.devices import device_classes
    from hardware.profile import parse_profile

    assert device_classes(parse_profile(PROFILE_TEXTS["header-uart"])) == {
        "ttyAMA": "dialout",
        "ttyS": "dialout",
    }
    assert device_classes(parse_profile(PROFILE_TEXTS["usb-serial"])) == {"ttyUSB": "dialout"}


def test_sysusers_creates_the_user_in_gpio_i2c_spi_and_dialout(tmp_path):
    etc = tmp_path / "etc"
    (etc / "sysusers.d").mkdir(parents=True)
    shutil.copy(SYSUSERS, etc / "sysusers.d" / "arcana-table.conf")
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    # As on Raspberry Pi OS: the groups exist, the first user is in them.
    (etc / "group").write_text(
        "root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\n"
    )
    done = subprocess.run(
        [systemd_tool("systemd-sysusers"), f"--root={tmp_path}", "arcana-table.conf"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    passwd = (etc / "passwd").read_text().splitlines()
    users = {line.split(":")[0]: line.split(":") for line in passwd}
    assert users["arcana-table"][5] == "/var/lib/arcana-table"
    assert users["arcana-table"][6] == "/usr/sbin/nologin"
    members = {
        line.split(":")[0]: line.split(":")[3].split(",")
        for line in (etc / "group").read_text().splitlines()
    }
    for group in ("gpio", "i2c", "spi", "dialout"):
        assert sorted(members[group]) == ["arcana-table", "pi"]


def test_the_shutdown_budget_ends_before_systemd_sends_sigkill():
    from firmware.service import SHUTDOWN_BUDGET_S

    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    stop_timeout = float(settings["Service.TimeoutStopSec"][0])
    # At least a second left for the interpreter to exit after the clean-up steps.
    assert stop_timeout >= SHUTDOWN_BUDGET_S + 1.0


@pytest.fixture
def web_root(fake_root) -> Path:
    """The fake root with the web app's socket unit and drop-in installed where docs/web.md
    puts them."""
    dropins = fake_root / "etc/systemd/system" / f"{UNIT.name}.d"
    dropins.mkdir()
    shutil.copy(WEB_DROPIN, dropins / WEB_DROPIN.name)
    shutil.copy(WEB_SOCKET, fake_root / "etc/systemd/system" / WEB_SOCKET.name)
    return fake_root


def test_with_the_web_app_installed_the_exposure_is_the_base_units(web_root):
    exposure, report = security(UNIT.name, root=web_root)
    assert exposure <= EXPOSURE_LIMIT, report
    base_exposure, base_report = security(UNIT)
    # Socket activation opens no setting of the service: the same report, line for line.
    assert (exposure, report) == (base_exposure, base_report)
    assert {"PrivateNetwork", "IPAddressDeny"}.isdisjoint(flagged_settings(report))


def test_the_web_socket_allows_only_loopback_link_local_and_the_private_ranges():
    settings = unit_settings(WEB_SOCKET.read_text(encoding="utf-8"))
    allowed = [entry for value in settings["Socket.IPAddressAllow"] for entry in value.split()]
    assert sorted(allowed) == sorted(LOCAL_NETWORKS)
    assert settings["Socket.IPAddressDeny"] == ["any"]


def test_the_web_socket_listens_on_the_profiles_default_port_for_the_service():
    from hardware.profile.web import DEFAULT_PORT

    settings = unit_settings(WEB_SOCKET.read_text(encoding="utf-8"))
    assert settings["Socket.ListenStream"] == [str(DEFAULT_PORT)]
    assert settings["Socket.Accept"] == ["no"]  # one listening socket, not one per connection
    assert settings["Socket.Service"] == [UNIT.name]
    assert settings["Unit.PartOf"] == [UNIT.name]  # stopping the table stops the socket too
    assert "Install.WantedBy" not in settings  # the drop-in's Sockets= pulls it in


def test_the_web_drop_in_only_hands_the_socket_to_the_service():
    settings = unit_settings(WEB_DROPIN.read_text(encoding="utf-8"))
    assert settings == {"Service.Sockets": [WEB_SOCKET.name]}
    # The service keeps no network of its own.
    unit = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert unit["Service.PrivateNetwork"] == ["yes"]
    assert unit["Service.RestrictAddressFamilies"] == ["AF_UNIX"]
    assert unit["Service.IPAddressDeny"] == ["any"]


def test_with_the_web_app_verify_finds_nothing_to_complain_about(web_root):
    for name in (UNIT.name, WEB_SOCKET.name):
        done = subprocess.run(
            [systemd_tool("systemd-analyze"), "verify", f"--root={web_root}", name],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout + done.stderr == ""


def test_verify_of_the_service_reads_the_drop_in_and_the_socket_unit(web_root):
    socket_unit = web_root / "etc/systemd/system" / WEB_SOCKET.name
    socket_unit.write_text(socket_unit.read_text().replace("ListenStream=", "ListenStreem="))
    # The drop-in's Sockets= makes the service's verify load the socket: its typo shows.
    assert "ListenStreem" in verify(web_root).stderr
    (web_root / "etc/systemd/system" / f"{UNIT.name}.d" / WEB_DROPIN.name).unlink()
    assert verify(web_root).stderr == ""


def test_verify_would_catch_a_socket_unit_for_a_missing_service(web_root):
    socket_unit = web_root / "etc/systemd/system" / WEB_SOCKET.name
    socket_unit.write_text(socket_unit.read_text().replace("Service=arcana-table.", "Service=x."))
    done = subprocess.run(
        [systemd_tool("systemd-analyze"), "verify", f"--root={web_root}", WEB_SOCKET.name],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "x.service not loaded" in done.stderr


WEB_INSTALL = (
    "sudo install -m 0644 systemd/arcana-table-web.socket /etc/systemd/system/",
    "sudo install -D -m 0644 systemd/web.conf /etc/systemd/system/arcana-table.service.d/web.conf",
)


def test_web_md_gives_the_install_commands_and_the_measured_exposure(web_root):
    exposure, _ = security(UNIT.name, root=web_root)
    doc = WEB_DOC.read_text(encoding="utf-8")
    assert all(command in doc for command in WEB_INSTALL)
    assert f"Overall exposure level for arcana-table.service: {exposure}" in doc
    assert "--root=$root arcana-table.service" in doc


def test_the_pi_set_up_installs_the_web_units_for_a_web_profile_and_the_readme_lists_them():
    guide = PI_SETUP.read_text(encoding="utf-8")
    service_step = guide[guide.index("## 9. Installing the service") :]
    service_step = service_step[: service_step.index("## 10.")]
    assert all(command in service_step for command in WEB_INSTALL)
    assert "[web] enabled = true" in service_step
    updating = guide[guide.index("## 11. Updating") :]
    assert "web.conf" in updating and "arcana-table-web.socket" in updating
    readme = README.read_text(encoding="utf-8")
    assert "| `web.conf` | `/etc/systemd/system/arcana-table.service.d/web.conf` |" in readme
    assert "| `arcana-table-web.socket` | `/etc/systemd/system/arcana-table-web.socket` |" in readme
