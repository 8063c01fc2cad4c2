"""Res Arcana seats in a table profile: `seat = N` on a pad's [[readers]] entry."""

from __future__ import annotations

import pytest

from hardware.profile import ProfileError, load_profile, parse_profile

CS_PINS = (5, 6, 13, 16, 26)


def table(seats: dict[int, str], *, displays: int = 5, extra: str = "") -> str:
    """A profile of five SPI stake pads, `displays` stake OLEDs and a status OLED; `seats`
    gives a pad's `seat = ...` line by pad number (its text written as is)."""
    text = ["[mux]\nbus = 1\naddress = 0x70\nkernel = true\n"]
    for n, cs in enumerate(CS_PINS):
        seat = f"seat = {seats[n]}\n" if n in seats else ""
        text.append(f'[[readers]]\nrole = "stake-{n}"\ncs = {cs}\n{seat}')
    for n in range(displays):
        text.append(f'[[displays]]\nrole = "stake-{n}"\nmux_channel = {n}\n')
    text.append('[[displays]]\nrole = "status"\nmux_channel = 7\n')
    return "\n".join(text) + extra


def problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as raised:
        parse_profile(text, source="t.toml")
    return str(raised.value).splitlines()


def seat_line(text: str, pad: int) -> int:
    """The line number of pad `pad`'s `seat =` line in `text`."""
    lines = text.split("\n")
    header = lines.index(f'role = "stake-{pad}"')
    return header + 1 + next(i for i, line in enumerate(lines[header:]) if line.startswith("seat"))


def test_the_full_table_seats_stake_pads_1_to_4_and_leaves_the_fifth_out():
    profile = load_profile("full-table")
    assert profile.seats == ("stake-0", "stake-1", "stake-2", "stake-3")
    assert [r.seat for r in profile.readers] == [1, 2, 3, 4, None]


def test_a_minimal_table_and_a_profile_without_seats_give_none():
    assert load_profile("minimal").seats == ()
    assert parse_profile(table({})).seats == ()


def test_seats_come_in_seat_order_whatever_the_pad_order():
    profile = parse_profile(table({0: 3, 2: 1, 4: 2}))
    assert profile.seats == ("stake-2", "stake-4", "stake-0")
    assert {r.role: r.seat for r in profile.readers} == {
        "stake-0": 3,
        "stake-1": None,
        "stake-2": 1,
        "stake-3": None,
        "stake-4": 2,
    }


def test_two_pads_on_one_seat_are_refused_at_the_second():
    text = table({0: 1, 1: 2, 3: 2})
    assert problems(text) == [
        f"t.toml line {seat_line(text, 3)}: two readers are seat 2: stake-3 and stake-1 "
        f"(line {seat_line(text, 1)})"
    ]


def test_a_seat_needs_a_display_of_the_same_role():
    text = table({0: 1, 1: 2, 4: 3}, displays=4)  # no stake-4 OLED
    assert problems(text) == [
        f"t.toml line {seat_line(text, 4)}: reader stake-4 is seat 3 but no display has "
        "role 'stake-4': a seat needs its own screen"
    ]


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        ({0: 0}, "seat 0 is outside 1..4"),
        ({0: 5}, "seat 5 is outside 1..4"),
        ({0: '"1"'}, "seat must be a whole number, not '1'"),
        ({0: 1.0}, "seat must be a whole number, not 1.0"),
        ({0: "true"}, "seat must be a whole number, not True"),
    ],
)
def test_a_seat_is_a_whole_number_from_1_to_4(seats, expected):
    text = table({**seats, 1: 2, 2: 3})
    assert problems(text) == [f"t.toml line {seat_line(text, 0)}: {expected}"]


def test_seats_count_from_1_without_a_gap():
    text = table({0: 1, 1: 3, 2: 4})
    assert problems(text) == [
        f"t.toml line {seat_line(text, 1)}: seats count from 1 without a gap: seat 2 is "
        "missing before seat 3"
    ]
    text = table({3: 2, 4: 3})
    assert problems(text) == [
        f"t.toml line {seat_line(text, 3)}: seats count from 1 without a gap: seat 1 is "
        "missing before seat 2"
    ]


def test_one_seat_alone_is_not_enough_for_res_arcana():
    text = table({2: 1})
    assert problems(text) == [
        f"t.toml line {seat_line(text, 2)}: only seat 1 is given: seats are for 2 to 4 "
        "players"
    ]


def test_the_minimal_tables_main_pad_cannot_be_a_seat():
    text = (
        '[[readers]]\nrole = "main"\ninterface = "i2c"\nseat = 1\n'
        '[[displays]]\nrole = "main"\naddress = 0x3C\n'
    )
    assert problems(text) == [
        "t.toml line 4: seat is for a pad of its own: the minimal table's main pad stands in "
        "for every seat in turn"
    ]


def test_a_misspelt_seat_is_named():
    text = table({0: 1, 1: 2}).replace("seat = 2", "seta = 2")
    assert problems(text) == [
        f"t.toml line {seat_line(text.replace('seta', 'seat'), 1)}: unknown setting 'seta' in "
        "[readers]; did you mean 'seat'?"
    ]


def test_a_seat_on_a_display_says_where_it_goes():
    text = table({0: 1, 1: 2}).replace(
        'role = "stake-0"\nmux_channel = 0\n', 'role = "stake-0"\nmux_channel = 0\nseat = 1\n'
    )
    line = text.split("\n").index("seat = 1", seat_line(text, 1)) + 1
    assert problems(text) == [
        f"t.toml line {line}: seat goes on the pad's [[readers]] entry: the display of the "
        "same role shows it"
    ]
