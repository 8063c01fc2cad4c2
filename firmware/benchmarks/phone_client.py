"""Bench phones: `python -m firmware.benchmarks.phone_client URL TOKEN...` (one per phone).

Each phone opens the web app's event stream with its cookie and fetches `/api/state` on
every version, as the phone's page does. It prints "streaming" once per phone when its
stream is open, "fetched PHONE VERSION" after each state; when stdin closes, one JSON
line: the states each phone fetched and the errors seen. Started by `firmware.benchmarks.phones`.
"""

from __future__ import annotations

import json
import sys
import threading
import urllib.request
from typing import Any

COOKIE = "arcana_table"


class BenchPhone(threading.Thread):
    def __init__(self, number: int, url: str, token: str, said: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.number = number
        self.url = url
        self.headers = {"Cookie": f"{COOKIE}={token}"}
        self.said = said
        self.states = 0
        self.errors: list[str] = []

    def run(self) -> None:
        request = urllib.request.Request(self.url + "api/events", headers=self.headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as stream:
                with self.said:
                    print("streaming", flush=True)
                for raw in stream:
                    line = raw.decode().strip()
                    if line.startswith("data:"):
                        if int(line[5:]) < 0:
                            return  # the table is stopping
                        self._fetch_state()
        except Exception as err:  # a bench reports what went wrong, it does not hide it
            self.errors.append(f"{type(err).__name__}: {err}")
            with self.said:
                print(f"failed {err}", flush=True)

    def _fetch_state(self) -> None:
        request = urllib.request.Request(self.url + "api/state", headers=self.headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            state = json.loads(response.read())
        self.states += 1
        with self.said:
            print(f"fetched {self.number} {state['version']}", flush=True)


def main(argv: list[str]) -> int:
    url, tokens = argv[0], argv[1:]
    said = threading.Lock()
    phones = [BenchPhone(n, url, token, said) for n, token in enumerate(tokens)]
    for phone in phones:
        phone.start()
    sys.stdin.read()  # until the bench closes our stdin
    report: dict[str, Any] = {
        "states": [phone.states for phone in phones],
        "errors": [error for phone in phones for error in phone.errors],
    }
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
