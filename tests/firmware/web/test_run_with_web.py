"""`arcana-table run --emulated` with `[web] enabled = true`: the service serves the web app
on the profile's port, and `arcana-table pair` opens a code it accepts."""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request

from service import messages_until, start_service
from web_run import free_port, pair_url, web_profile


def test_run_serves_the_web_app_and_pair_opens_a_code_it_accepts(tmp_path) -> None:
    port = free_port()
    profile = web_profile(tmp_path, port)
    state = tmp_path / "state"
    process, listener = start_service(tmp_path, "--profile", str(profile), state=state)
    try:
        messages_until(listener, "READY=1")
        url = f"http://127.0.0.1:{port}/"
        try:
            urllib.request.urlopen(url + "api/state", timeout=10)
            raise AssertionError("an unpaired request was answered")
        except urllib.error.HTTPError as err:
            assert err.code == 401
        opened = pair_url(profile, state)
        assert opened.startswith(f"{url}pair/")
        request = urllib.request.Request(
            url + "api/pair",
            data=json.dumps({"code": opened.rsplit("/", 1)[1]}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.load(answer)["device"]["role"]["kind"] == "owner"
            cookie = answer.headers["Set-Cookie"].split(";")[0]
        me = urllib.request.Request(url + "api/me", headers={"Cookie": cookie})
        with urllib.request.urlopen(me, timeout=10) as answer:
            assert json.load(answer)["device"]["role"]["label"] == "Owner"
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        listener.close()
    assert process.returncode == 0, err
