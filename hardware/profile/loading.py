"""Finding and checking a profile: by shipped name or by path, from TOML text to `Profile`."""

from __future__ import annotations

from pathlib import Path

from hardware.profile.checker import Checker
from hardware.profile.lines import read_toml
from hardware.profile.messages import ProfileError
from hardware.profile.specs import Profile

PROFILES = Path(__file__).resolve().parents[1] / "profiles"


def profile_names() -> list[str]:
    """The profiles shipped with the package."""
    return sorted(path.stem for path in PROFILES.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> Profile:
    """Load a shipped profile by name (`"full-table"`, `"minimal"`) or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml" and path.parent == Path(".") and not path.exists():
        path = PROFILES / f"{name_or_path}.toml"
        if not path.exists():
            known = ", ".join(profile_names())
            raise ProfileError(str(name_or_path), [(None, f"no such profile; shipped: {known}")])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ProfileError(str(path), [(None, f"cannot read it: {err}")]) from err
    return parse_profile(text, source=path.name, name=path.stem)


def parse_profile(text: str, *, source: str = "profile", name: str = "profile") -> Profile:
    """Check a profile's TOML text; raise `ProfileError` listing every problem found."""
    data, lines = read_toml(text, source)
    checker = Checker(data, lines)
    profile = checker.profile(name, source)
    if checker.problems:
        raise ProfileError(source, checker.problems)
    return profile
