"""Every screen of the gallery, at both display sizes, pixel for pixel against its stored
reference PNG.

Regenerate after a deliberate change with `ARCANA_REGENERATE=1 .venv/bin/pytest
tests/firmware/screens`; that run writes the PNGs and fails on purpose (as luma.oled's baseline
helper does), so a changed picture never passes unseen. Look at the new PNGs before
committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from regenerate import VARIABLE, regenerating, rewrote

from firmware.screens import RENDERERS, SIZES, render
from firmware.screens.gallery import DIGITS_OF, EXAMPLES, LANGUAGE_OF
from firmware.screens.text_art import diff_art

REFERENCE = Path(__file__).resolve().parent / "reference"


def check_reference(image: Image.Image, path: Path, regenerate: bool) -> None:
    """Compare with the stored PNG, or write it and fail on purpose when regenerating."""
    if regenerate:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        rewrote(f"{path.name} (look at the picture)")
    if not path.exists():
        pytest.fail(f"no reference image {path.name}; create it with {VARIABLE}=1")
    with Image.open(path) as stored:
        expected = stored.convert("1")
    difference = diff_art(expected, image)
    if difference:
        pytest.fail(
            f"{path.name} differs from its reference ('+' new ink, '-' lost ink):\n{difference}"
        )


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_screen_matches_its_reference_image(name, size):
    # "_de": drawn in German; "_fa_digits": in Persian with ۰-۹
    image = render(EXAMPLES[name], size, LANGUAGE_OF.get(name), DIGITS_OF.get(name))
    path = REFERENCE / f"{name}_{size[0]}x{size[1]}.png"
    check_reference(image, path, regenerating())


def test_the_gallery_shows_every_kind_of_screen():
    assert {type(screen) for screen in EXAMPLES.values()} == set(RENDERERS)


def test_no_stale_reference_images_are_left():
    expected = {f"{name}_{w}x{h}.png" for name in EXAMPLES for w, h in SIZES}
    assert {path.name for path in REFERENCE.glob("*.png")} == expected


def test_regenerating_writes_the_image_and_fails_on_purpose(tmp_path):
    image = render(EXAMPLES["refusal"])
    path = tmp_path / "refusal.png"
    with pytest.raises(pytest.fail.Exception, match=r"regenerated refusal\.png"):
        check_reference(image, path, regenerate=True)
    with Image.open(path) as written:
        assert diff_art(written.convert("1"), image) == ""
    check_reference(image, path, regenerate=False)  # and now it passes


def test_a_changed_screen_fails_with_a_readable_picture_of_the_difference(tmp_path):
    path = tmp_path / "refusal.png"
    render(EXAMPLES["refusal"]).save(path)
    changed = render(EXAMPLES["refusal_long"])
    with pytest.raises(pytest.fail.Exception) as failure:
        check_reference(changed, path, regenerate=False)
    message = str(failure.value)
    assert "refusal.png differs" in message
    assert "pixels differ in x" in message
    assert "+" in message and "-" in message


def test_a_missing_reference_says_how_to_create_it(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="ARCANA_REGENERATE=1"):
        check_reference(render(EXAMPLES["saved"]), tmp_path / "saved.png", regenerate=False)
