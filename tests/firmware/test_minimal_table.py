"""The minimal table (one pad, one OLED, three buttons): holding Select moves the pad and the
screen to the next role, so a whole game is played on one pad."""

from __future__ import annotations

from firmware.controllers.resarcana import Bot
from firmware.games import GameShelf
from firmware.screens import ChoiceScreen, RefusalScreen, render
from firmware.tabletop import EmulatedTable

GAME_CHOICES = ("Arcana", "Res Arcana", "Enroll cards", "Language: English")


def same(a, b) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def move_to(top: EmulatedTable, role: str) -> None:
    while top.companion.single_pad.focus != role:
        top.press("select", held=True)


def test_a_res_arcana_game_on_one_pad(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        assert set(top.screens()) == {"main"}
        choice = render(ChoiceScreen("Which game?", GAME_CHOICES))
        assert same(top.screens()["main"], choice)
        bot = Bot(5, 2)
        for step in [*bot.setup_steps()]:
            if step.kind == "tap":
                move_to(top, step.target)
                top.tap("main", step.card)
            else:
                top.press(step.target)
        assert top.companion.game_id is not None
        taps = 0
        while not top.companion.controller.is_over():
            for step in bot.next_steps(top.companion.controller.state):
                if step.kind == "tap":
                    move_to(top, step.target)
                    assert same(top.screens()["main"], top.companion.frames()[step.target])
                    top.tap("main", step.card)
                    taps += 1
                else:
                    top.press(step.target)
        assert taps > 5
        result = top.companion.rules.result(top.companion.controller.state)
        assert result["finished"] and result["winners"]


def test_a_refusal_shows_on_the_one_screen_whatever_the_role(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        top.tap("main", "seer_orb")  # no game chosen yet
        refusal = render(RefusalScreen("Choose the game first: Select, then OK"))
        assert same(top.screens()["main"], refusal)
        top.wait(5)
        assert not same(top.screens()["main"], refusal)


def test_games_for_a_profile_use_its_pads():
    from hardware.profile import load_profile

    assert GameShelf.for_profile(load_profile("full-table")).pads == tuple(
        f"stake-{n}" for n in range(5)
    )
    assert GameShelf.for_profile(load_profile("minimal")).pads == GameShelf().pads


def test_a_128x32_screen_gets_its_own_layout(tmp_path):
    from hardware.profile import PROFILES, parse_profile

    # The minimal table with a 128x32 OLED instead of a 128x64 one.
    text = (PROFILES / "minimal.toml").read_text()
    text = text.replace('chip = "ssd1306"', 'chip = "ssd1306"\nheight = 32')
    profile = parse_profile(text, source="short.toml", name="short")
    assert profile.displays[0].height == 32
    with EmulatedTable(tmp_path, GameShelf(), profile=profile) as top:
        frame = top.screens()["main"]
        assert frame.size == (128, 32)
        choice = ChoiceScreen("Which game?", GAME_CHOICES)
        assert same(frame, render(choice, (128, 32)))
        top.tap("main", "seer_orb")  # a refusal, drawn for 128x32 too
        refusal = render(RefusalScreen("Choose the game first: Select, then OK"), (128, 32))
        assert same(top.screens()["main"], refusal)
        assert top.companion.troubles == {}


def test_holding_select_walks_the_roles_in_order_and_round(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        pad = top.companion.single_pad
        assert pad.focus == "status"
        walked = []
        for _ in range(len(pad.roles)):
            top.press("select", held=True)
            walked.append(pad.focus)
        assert walked == [*top.companion.games.pads, "status"]
