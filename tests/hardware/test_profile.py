"""Table profiles: the shipped ones load; every mistake is named with its line."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from hardware.profile import ProfileError, load_profile, parse_profile, profile_names


def problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as raised:
        parse_profile(textwrap.dedent(text), source="t.toml")
    return str(raised.value).splitlines()


def test_the_shipped_profiles_load_by_name_and_by_path(repo_root):
    assert profile_names() == ["full-table", "minimal"]
    for name in profile_names():
        shipped = repo_root / "hardware" / "profiles" / f"{name}.toml"
        assert load_profile(shipped) == load_profile(name)


# A profile path in the docs: `hardware/profiles/minimal.toml`, `~/arcana-table/...`,
# `tests/fakepi/profiles/x.toml`; the path is read from the repository's root.
DOC_PROFILE_PATH = re.compile(r"(?:~/arcana-table/)?((?:[\w.-]+/)*profiles/[\w.-]+\.toml)")


def doc_files(repo_root: Path) -> list[Path]:
    return [
        repo_root / "README.md",
        repo_root / "CONTRIBUTING.md",
        *sorted((repo_root / "docs").glob("*.md")),
        *sorted((repo_root / "systemd").glob("*.md")),
    ]


def test_every_profile_path_the_docs_name_exists_and_loads(repo_root):
    named: dict[str, str] = {}
    for doc in doc_files(repo_root):
        for path in DOC_PROFILE_PATH.findall(doc.read_text(encoding="utf-8")):
            named.setdefault(path, doc.relative_to(repo_root).as_posix())
    assert "hardware/profiles/full-table.toml" in named  # the pattern finds the shipped ones
    missing = sorted(
        f"{path} (in {doc})" for path, doc in named.items() if not (repo_root / path).is_file()
    )
    assert missing == [], "these profile paths named in the docs do not exist"
    for path in named:
        load_profile(repo_root / path)


def test_the_full_table_has_five_pads_six_screens_three_buttons_and_a_buzzer():
    table = load_profile("full-table")
    assert [r.role for r in table.readers] == [f"stake-{n}" for n in range(5)]
    assert {r.interface for r in table.readers} == {"spi"}
    assert len({r.cs for r in table.readers}) == 5
    assert [d.role for d in table.displays] == [*(f"stake-{n}" for n in range(5)), "status"]
    # each display is on a channel of the kernel-driven multiplexer on i2c-1, whose bus
    # number is read from sysfs at start
    assert table.mux.kernel and table.mux.kernel_buses == ()
    assert [(d.bus, d.mux_channel) for d in table.displays] == [(1, n) for n in range(6)]
    assert [b.role for b in table.buttons] == ["undo", "select", "ok"]
    assert table.buzzer.pin == 12
    assert table.one_field_at_a_time


def test_the_minimal_table_has_one_pad_one_screen_three_buttons():
    table = load_profile("minimal")
    assert (len(table.readers), len(table.displays), len(table.buttons)) == (1, 1, 3)
    assert table.readers[0].where == "i2c-1 0x24"
    assert table.buzzer is None


def test_a_duplicate_pin_names_both_users_and_lines():
    assert problems("""
        [[buttons]]
        role = "undo"
        pin = 17

        [[buttons]]
        role = "ok"
        pin = 17
        """) == ["t.toml line 8: duplicate pin GPIO17: button ok pin and button undo pin at line 4"]


def test_an_unknown_role_lists_the_roles():
    (line,) = problems("""
        [[readers]]
        role = "stake-9"
        cs = 5
        """)
    assert line.startswith("t.toml line 3: role 'stake-9' is not one of stake-0, stake-1")


def test_two_devices_on_one_address_are_refused():
    assert problems("""
        [[readers]]
        role = "main"
        interface = "i2c"
        address = 0x3C

        [[displays]]
        role = "main"
        address = 0x3C
        """) == [
        "t.toml line 9: two devices on one address: display main and reader main at line 5 "
        "are both at 0x3C on i2c-1"
    ]


def test_a_device_on_the_parent_bus_clashes_with_one_behind_the_multiplexer():
    lines = problems("""
        [mux]
        kernel_buses = [22, 23, 24, 25, 26, 27, 28, 29]

        [[displays]]
        role = "status"
        address = 0x3C

        [[displays]]
        role = "stake-0"
        mux_channel = 3
        address = 0x3C

        [[displays]]
        role = "stake-1"
        mux_channel = 4
        address = 0x3C
        """)
    # the same address on two channels is what the multiplexer is for; not on its parent bus
    assert lines == [
        f"t.toml line {line}: two devices on one address: display {role} and display status "
        "at line 7 are both at 0x3C on i2c-1"
        for line, role in ((12, "stake-0"), (17, "stake-1"))
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('[[displays]]\nrole = "main"\nheight = 48\n', "line 3: height 48 is not one of 64, 32"),
        ("[table]\nabsence_s = -1\n", "line 2: absence_s -1.0 is outside 0.0..10.0"),
        ('[table]\nabsence_s = "long"\n', "line 2: absence_s must be a number, not 'long'"),
        ('[[buttons]]\nrole = "ok"\npin = 40\n', "line 3: pin GPIO40 is not a usable GPIO"),
        ('[[displays]]\nrole = "main"\n[[buttons]]\nrole = "ok"\npin = 2\n',
         "line 5: duplicate pin GPIO2: button ok pin and I2C1 SDA"),
        ('[[readers]]\nrole = "main"\ncs = 10\n', "line 3: duplicate pin GPIO10: reader main "
                                                  "cs and SPI0 MOSI"),
        ('[[readers]]\nrole = "main"\n', "line 1: [readers] needs 'cs'"),
        ('[[buttons]]\nrole = "ok"\npin = 5\ncolour = 1\n', "line 4: unknown setting 'colour'"),
        ("[lights]\non = true\n", "line 1: unknown section 'lights'"),
        ("[table\n", "line 1: not TOML"),
        ('[[readers]]\nrole = "main"\ninterface = "i2c"\nmux_channel = 2\n',
         "line 4: reader main is on multiplexer channel 2, but no [mux] is on i2c-1"),
        ('[mux]\n[[displays]]\nrole = "main"\nmux_channel = 1\n',
         "line 4: display main is behind the multiplexer, which needs kernel = true"),
        ('[[readers]]\nrole = "main"\ncs = 5\nreq = 6\n',
         "line 4: reader main is on spi; req (the PN532's H_REQ wake-up line) is for I2C"),
        ('[table]\nbuses = "fake"\n', "line 2: buses 'fake' is not one of real, emulated"),
        ('[[readers]]\nrole = "main"\ncs = 8\n',
         "line 3: duplicate pin GPIO8: reader main cs and SPI0 CE0, held by the kernel"),
        ('[[readers]]\nrole = "main"\nbus = 1\ncs = 5\n[[buttons]]\nrole = "ok"\npin = 18\n',
         "line 7: duplicate pin GPIO18: button ok pin and SPI1 CE0, held by the kernel"),
        ('[[readers]]\nrole = "main"\ncs = 5\n'
         '[[displays]]\nrole = "main"\ninterface = "spi"\ndc = 24\n',
         "line 4: display main is on SPI0's CE0, which every reader transfer on SPI0 selects"),
        ('[mux]\nkernel_buses = [1, 2]\n', "line 2: kernel_buses must list 8 different"),
        ('[[readers]]\nrole = "main"\ncs = 5\n[[readers]]\nrole = "main"\ncs = 6\n',
         "line 4: two readers have role 'main' (first at line 1)"),
    ],
)  # fmt: skip
def test_bad_values_are_named_with_their_line(body, expected):
    lines = problems(body)
    assert any(line.startswith(f"t.toml {expected}") for line in lines), lines


def test_every_problem_is_reported_at_once():
    lines = problems("""
        [[buttons]]
        role = "jump"
        pin = 17

        [[displays]]
        role = "main"
        rotate = 1
        """)
    assert [line.split(":")[0] for line in lines] == ["t.toml line 3", "t.toml line 8"]


def test_an_unknown_profile_name_lists_the_shipped_ones():
    with pytest.raises(
        ProfileError, match="bigtable: no such profile; shipped: full-table, minimal"
    ):
        load_profile("bigtable")


def test_the_example_in_the_hardware_guide_is_a_valid_profile(repo_root):
    guide = (repo_root / "docs" / "hardware.md").read_text(encoding="utf-8")
    example = guide.split("```toml\n", 1)[1].split("```", 1)[0]
    profile = parse_profile(example, source="docs/hardware.md")
    assert profile.readers[0].irq == 4
    assert profile.mux.kernel and profile.buses == "real"
    assert (profile.displays[0].bus, profile.displays[0].mux_channel) == (1, 0)  # found at start
    assert (profile.encoder.a, profile.encoder.b) == (20, 21)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[table]\nabsence_s = nan\n", "line 2: absence_s must be a finite number, not nan"),
        ("[table]\nabsence_s = inf\n", "line 2: absence_s must be a finite number, not inf"),
        ("[table]\nabsence_s = -0.5\n", "line 2: absence_s -0.5 is outside 0.0..10.0"),
        ("[table]\nhold_s = -inf\n", "line 2: hold_s must be a finite number, not -inf"),
        ("[table]\nhold_s = " + "9" * 400 + "\n",
         "line 2: hold_s must be a finite number, not " + "9" * 37 + "..."),
        ("[table]\nabsense_s = 0.2\n",
         "line 2: unknown setting 'absense_s' in [table]; did you mean 'absence_s'?"),
        ('[[buttons]]\nrole = "ok"\npin = 5\npul_up = true\n',
         "line 4: unknown setting 'pul_up' in [buttons]; did you mean 'pull_up'?"),
        ("[buzer]\npin = 12\n", "line 1: unknown section 'buzer'; did you mean 'buzzer'?"),
        ("[table]\nname = " + "[" * 5000 + "]" * 5000 + "\n", "not TOML: nested too deeply"),
        ("[table]\nname = [[[[[1]]]]]\n", "table.name[0][0][0]: nested deeper than 4 levels"),
        ("[table]\nabsence_s = " + "9" * 5000 + "\n", "not TOML: a number far too long"),
    ],
)  # fmt: skip
def test_hostile_values_are_one_sentence_each(body, expected):
    lines = problems(body)
    assert lines == [f"t.toml {expected}" if expected.startswith("line") else f"t.toml: {expected}"]


def test_a_profile_says_which_parts_a_table_cannot_do_without():
    assert parse_profile('[[buttons]]\nrole = "ok"\npin = 5\n', source="t.toml").missing() == [
        "t.toml has no [[readers]]: a table needs at least one pad",
        "t.toml has no [[displays]]: a table needs at least one screen",
    ]
    assert load_profile("minimal").missing() == []


def test_line_numbers_count_newlines_only():
    # U+2028 in a comment is no line end for TOML: the problem is still on line 3
    (line,) = problems('[[buttons]] # a\u2028b\nrole = "ok"\npin = 40\n')
    assert line.startswith("t.toml line 3: pin GPIO40")
