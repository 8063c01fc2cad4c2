"""A profile's [web] section (hardware/profile/web.py): off by default, checked like the rest."""

from __future__ import annotations

import pytest

from hardware.profile import ProfileError, load_profile, parse_profile
from hardware.profile.web import WebSpec


def test_shipped_profiles_serve_no_web_app() -> None:
    assert load_profile("full-table").web == WebSpec(enabled=False, port=8080, spectators=False)


def test_web_section_is_read() -> None:
    profile = parse_profile("[web]\nenabled = true\nport = 8443\nspectators = true\n")
    assert profile.web == WebSpec(enabled=True, port=8443, spectators=True)


@pytest.mark.parametrize(
    ("written", "address"),
    [("192.168.1.20", "192.168.1.20"), ("fd00::20", "fd00::20"), ("[fd00::20]", "fd00::20")],
)
def test_web_address_is_an_ip_address(written: str, address: str) -> None:
    profile = parse_profile(f'[web]\nenabled = true\naddress = "{written}"\n')
    assert profile.web.address == address


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("[web]\nport = 0\n", "line 2: port 0 is outside 1..65535"),
        ("[web]\nport = 70000\n", "line 2: port 70000 is outside 1..65535"),
        ("[web]\nenabled = 1\n", "line 2: enabled must be true or false, not 1"),
        ("[web]\nspectators = 'yes'\n", "line 2: spectators must be true or false"),
        ("[web]\nhost = '0.0.0.0'\n", "line 2: unknown setting 'host' in [web]"),
        ("web = 3\n", "write web as a [web] table"),
        ("[web]\naddress = 'arcana.local'\n", "line 2: address 'arcana.local' is not an IP"),
        ("[web]\naddress = '0.0.0.0'\n", "line 2: address '0.0.0.0' is not one a phone can"),
        ("[web]\naddress = 3\n", "line 2: address must be"),
    ],
)
def test_bad_web_settings_are_named(text: str, sentence: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text)
    assert sentence in str(caught.value)
