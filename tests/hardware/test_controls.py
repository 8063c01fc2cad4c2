"""Buttons, encoder and buzzer on gpiozero's MockFactory pins."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.controls import PATTERNS, Button, Buzzer, Encoder, hold_down, let_go, press, turn


@pytest.fixture
def factory():
    return MockFactory()


def test_a_press_calls_when_pressed_with_the_button(factory):
    button = Button(17, "undo", pin_factory=factory)
    seen = []
    button.when_pressed = lambda b: seen.append(b.role)
    press(button)
    press(button)
    assert seen == ["undo", "undo"]
    assert button.presses == 2
    assert not button.is_pressed


def test_a_pulled_down_button_is_pressed_by_driving_high(factory):
    button = Button(22, "ok", pull_up=False, pin_factory=factory)
    hold_down(button)
    assert button.is_pressed
    assert factory.pin(22).state == 1
    let_go(button)
    assert button.presses == 1


def test_holding_calls_when_held_then_when_released(factory):
    button = Button(27, "select", hold_s=0.01, pin_factory=factory)
    held, released = threading.Event(), []
    button.when_held = lambda b: held.set()
    button.when_released = lambda b: released.append(b.role)
    hold_down(button)
    assert held.wait(5)
    let_go(button)
    assert (button.presses, button.holds, released) == (1, 1, ["select"])


def test_a_failing_callback_is_logged_and_the_button_keeps_working(factory, caplog):
    button = Button(17, "undo", pin_factory=factory)

    def clumsy(_button):
        raise RuntimeError("handler bug")

    button.when_pressed = clumsy
    press(button)
    assert "button undo (GPIO17): a callback failed" in caplog.text
    seen = []
    button.when_pressed = seen.append
    press(button)
    assert seen == [button]


def test_the_encoder_reports_each_detent_with_its_direction(factory):
    encoder = Encoder(20, 21, pin_factory=factory)
    steps = []
    encoder.when_turned = steps.append
    turn(encoder, 2)
    turn(encoder, -3)
    assert steps == [1, 1, -1, -1, -1]
    assert encoder.steps == -1


def sound_of(factory, pattern):
    """The pin levels and the durations a pattern asks for, without waiting for them."""
    durations = []
    buzzer = Buzzer(12, pin_factory=factory, sleep=lambda s: durations.append(s) or False)
    factory.pin(12).clear_states()
    buzzer.play(pattern, wait=True)
    levels = [state.state for state in factory.pin(12).states]
    buzzer.close()
    return levels, durations


def test_the_three_buzzer_patterns_sound_different(factory):
    sounds = {name: sound_of(factory, name) for name in PATTERNS}
    assert sounds["ok"][0] == [False, True, False]
    assert sounds["unknown"][0] == [False, True, False, True, False]
    assert sounds["refused"][0] == [False, True, False]
    assert sounds["refused"][1][0] > 3 * sounds["ok"][1][0]  # a long buzz, not a chirp
    assert len({tuple(durations) for _, durations in sounds.values()}) == 3


def test_a_new_pattern_cuts_the_one_playing(factory):
    buzzer = Buzzer(12, pin_factory=factory)  # the real, interruptible wait
    buzzer.play("refused")
    buzzer.play("ok", wait=True)
    assert buzzer.played == ["refused", "ok"]
    assert factory.pin(12).state == 0
    buzzer.close()
    buzzer.close()


def test_an_unknown_pattern_is_refused_and_nothing_sounds(factory):
    buzzer = Buzzer(12, pin_factory=factory)
    with pytest.raises(ValueError, match="expected one of ok, unknown, refused"):
        buzzer.play("fanfare")
    assert buzzer.played == []
    assert [s.state for s in factory.pin(12).states] == [False]
