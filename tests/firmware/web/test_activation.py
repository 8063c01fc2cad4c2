"""The web app's socket handed over by systemd (firmware/web/activation.py): the
sd_listen_fds protocol, refusals of what cannot be served on, and the addresses of the
network a handed socket lives in, read from a process in a network namespace of its own
(`unshare --net`, as the unit's PrivateNetwork=yes)."""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.web import activation
from firmware.web.activation import HandedSocketError, handed_socket

ROOT = Path(__file__).resolve().parents[3]


def test_without_listen_variables_nothing_was_handed_over() -> None:
    assert handed_socket({"PATH": "/usr/bin"}) is None


def test_listen_pid_of_another_process_is_ignored_with_a_sentence(caplog) -> None:
    env = {"LISTEN_PID": str(os.getpid() + 1), "LISTEN_FDS": "1", "LISTEN_FDNAMES": "web"}
    with caplog.at_level(logging.WARNING, logger="firmware.web.activation"):
        assert handed_socket(env) is None
    assert f"LISTEN_PID={os.getpid() + 1} is not this process ({os.getpid()})" in caplog.text
    assert "binds its own port" in caplog.text
    assert env == {}  # nothing this process starts takes them for its own


@pytest.mark.parametrize("count", ["0", "two", ""])
def test_listen_fds_naming_no_socket_is_refused(count: str) -> None:
    with pytest.raises(HandedSocketError) as caught:
        handed_socket({"LISTEN_PID": str(os.getpid()), "LISTEN_FDS": count})
    assert f"LISTEN_FDS={count!r} names no socket" in str(caught.value)


def test_a_datagram_socket_is_refused_and_left_open() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        with pytest.raises(HandedSocketError) as caught:
            activation._listening_tcp(udp.fileno())
        assert "AF_INET/SOCK_DGRAM, not a TCP socket" in str(caught.value)
        assert "ListenStream=" in str(caught.value)
        udp.getsockname()  # still ours: the refusal did not close it


def test_a_tcp_socket_that_does_not_listen_is_refused() -> None:
    with socket.socket() as tcp:
        tcp.bind(("127.0.0.1", 0))
        with pytest.raises(HandedSocketError) as caught:
            activation._listening_tcp(tcp.fileno())
        assert "is not listening" in str(caught.value)


def test_a_listening_socket_is_taken_and_not_inherited_further() -> None:
    with socket.socket() as tcp:
        tcp.bind(("127.0.0.1", 0))
        tcp.listen()
        os.set_inheritable(tcp.fileno(), True)
        dup = os.dup(tcp.fileno())
        taken = activation._listening_tcp(dup)
        assert taken.getsockname() == tcp.getsockname()
        assert not os.get_inheritable(dup)
        taken.close()


def test_the_bound_address_is_none_for_a_wildcard() -> None:
    for family, host in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        with socket.socket(family) as sock:
            sock.bind((host, 0))
            assert activation.bound_address(sock) is None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        assert activation.bound_address(sock) == "127.0.0.1"


def test_the_phone_address_is_the_first_private_or_link_local_one() -> None:
    pick = activation.phone_address
    assert pick(["127.0.0.1", "203.0.113.7", "192.168.1.20", "10.0.0.2"]) == "192.168.1.20"
    assert pick(["127.0.0.1", "169.254.3.4"]) == "169.254.3.4"
    assert pick(["127.0.0.1", "172.31.0.9"]) == "172.31.0.9"
    assert pick(["127.0.0.1", "172.32.0.9", "8.8.8.8"]) is None  # not a private range


def test_the_network_of_a_socket_lists_loopback_first() -> None:
    with socket.socket() as sock:
        found = activation.network_addresses(sock)
    assert found[0] == "127.0.0.1"
    assert all(socket.inet_aton(address) for address in found)


CHILD = """
import socket, sys
from firmware.web import activation
handed = socket.socket(fileno=int(sys.argv[1]))
own = socket.socket(socket.AF_INET6)
print(",".join(activation.network_addresses(own)))
print(",".join(activation.network_addresses(handed)))
conn, _ = handed.accept()
conn.sendall(b"served from a private network")
conn.close()
"""


def test_a_handed_socket_keeps_its_network_in_a_process_without_one() -> None:
    """What the unit's PrivateNetwork=yes relies on: a process in a network namespace with
    only an unconfigured loopback accepts on a socket from the host's namespace, and reads
    the host's addresses through it."""
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux) is needed: apt install util-linux"
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        fd = listening.fileno()
        child = subprocess.Popen(
            [unshare, "--map-root-user", "--net", sys.executable, "-c", CHILD, str(fd)],
            pass_fds=[fd],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        with socket.create_connection(listening.getsockname(), timeout=60) as phone:
            phone.settimeout(60)
            greeting = phone.recv(100)
        with socket.socket() as host_side:
            host_addresses = activation.network_addresses(host_side)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    own, through_handed = out.splitlines()
    assert greeting == b"served from a private network"
    assert own == ""  # a new namespace: not even loopback is up
    assert through_handed.split(",") == host_addresses


def test_the_pairing_address_comes_from_the_profile_first_then_the_socket(monkeypatch) -> None:
    from firmware.web.serve import pairing_address
    from hardware.profile import parse_profile

    named = parse_profile('[web]\nenabled = true\naddress = "10.1.2.3"\n')
    unnamed = parse_profile("[web]\nenabled = true\n")
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        assert pairing_address(named, bound) == "10.1.2.3"
        assert pairing_address(unnamed, bound) == "127.0.0.1"
    monkeypatch.setattr(activation, "network_addresses", lambda sock: ["127.0.0.1", "192.168.1.20"])
    with socket.socket() as wildcard:
        wildcard.bind(("0.0.0.0", 0))
        assert pairing_address(unnamed, wildcard) == "192.168.1.20"


def test_ipv4_phones_on_a_dual_stack_socket_are_answered_by_their_address() -> None:
    """systemd's socket is [::] with BindIPv6Only=both: an IPv4 connection comes in on
    ::ffff:a.b.c.d, and the Host check must take it for a.b.c.d (127.0.0.2: loopback, but
    not one of the names the guard always answers to)."""
    import urllib.request

    from aiohttp import web

    from firmware.web import guard
    from firmware.web.running import Running

    async def hello(request: web.Request) -> web.Response:
        return web.json_response({"hello": "phone"})

    app = guard.application(None)
    app.router.add_get("/hello", hello)
    dual = socket.socket(socket.AF_INET6)
    dual.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    dual.bind(("::", 0))
    dual.listen()
    port = dual.getsockname()[1]
    with Running(app, sock=dual) as served:
        assert served.port == port
        with urllib.request.urlopen(f"http://127.0.0.2:{port}/hello", timeout=30) as answer:
            assert answer.status == 200
            assert answer.read() == b'{"hello": "phone"}'
