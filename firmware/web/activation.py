"""The web app's listening socket handed over by systemd (socket activation), and the
addresses of the network it lives in.

    sock = handed_socket()           # fd 3 from $LISTEN_FDS/$LISTEN_PID, or None
    if sock is not None:
        network_addresses(sock)      # ["127.0.0.1", "192.168.1.20"]: the socket's network

1. The sd_listen_fds(3) protocol, standard library only: $LISTEN_PID must be this process
   and $LISTEN_FDS at least 1; the first descriptor is 3. Both variables are removed, so
   nothing this process starts takes them for its own.
2. $LISTEN_PID of another process (a parent that forgot to clear them): ignored, logged.
3. What fd 3 holds must be a listening TCP socket; anything else is refused with a sentence
   (`HandedSocketError`). More than one descriptor: the first is used, the rest logged.
4. A handed socket keeps the network namespace it was created in (the host's), although
   the service itself has `PrivateNetwork=yes`: its interfaces' addresses are read through
   it (SIOCGIFCONF works on the socket's namespace, not the caller's), which is where the
   pairing address comes from when nothing names it (docs/web.md).
"""

from __future__ import annotations

import ctypes
import fcntl
import ipaddress
import logging
import os
import socket
import struct
from collections.abc import MutableMapping

from firmware.errors import FirmwareError

log = logging.getLogger(__name__)

FIRST_FD = 3  # SD_LISTEN_FDS_START
SIOCGIFCONF = 0x8912
IFNAMSIZ = 16
MAX_INTERFACES = 64
# What a phone on the local network may reach the table by: the socket unit's IPAddressAllow=
# (systemd/arcana-table-web.socket) less loopback.
PHONE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16")
)


class _IfMap(ctypes.Structure):
    """struct ifmap, the largest member of struct ifreq's union (<linux/if.h>)."""

    _fields_ = [
        ("mem_start", ctypes.c_ulong),
        ("mem_end", ctypes.c_ulong),
        ("base_addr", ctypes.c_ushort),
        ("irq", ctypes.c_ubyte),
        ("dma", ctypes.c_ubyte),
        ("port", ctypes.c_ubyte),
    ]


# struct ifreq: the name, then the union (a 16-byte sockaddr or an ifmap): 40 bytes on
# 64-bit Linux, 32 on 32-bit ARM.
IFREQ_SIZE = IFNAMSIZ + max(16, ctypes.sizeof(_IfMap))


class HandedSocketError(FirmwareError):
    """What systemd handed over is not a socket the web app can serve on."""


def handed_socket(environ: MutableMapping[str, str] | None = None) -> socket.socket | None:
    """The listening socket systemd passed to this process, or None when none was."""
    env = os.environ if environ is None else environ
    pid, count = env.pop("LISTEN_PID", None), env.pop("LISTEN_FDS", None)
    env.pop("LISTEN_FDNAMES", None)
    if pid is None and count is None:
        return None
    if pid != str(os.getpid()):
        log.warning(
            "LISTEN_PID=%s is not this process (%d): the sockets it names are not ours, "
            "so the web app binds its own port",
            pid,
            os.getpid(),
        )
        return None
    if count is None or not count.isdigit() or int(count) < 1:
        raise HandedSocketError(
            f"systemd socket activation: LISTEN_FDS={count!r} names no socket "
            "(expected a number of at least 1)"
        )
    if int(count) > 1:
        log.warning(
            "systemd handed over %s sockets; the web app serves on the first (fd %d) only",
            count,
            FIRST_FD,
        )
    return _listening_tcp(FIRST_FD)


def _listening_tcp(fd: int) -> socket.socket:
    try:
        sock = socket.socket(fileno=fd)
    except OSError as err:
        raise HandedSocketError(
            f"systemd socket activation: fd {fd} is not an open socket ({err.strerror})"
        ) from err
    kind = (sock.family, sock.type)
    listening = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        sock.detach()
        raise HandedSocketError(
            f"systemd socket activation: fd {fd} is {kind[0].name}/{kind[1].name}, not a TCP "
            "socket: the web app's socket unit needs ListenStream= (systemd/README.md)"
        )
    if not listening:
        sock.detach()
        raise HandedSocketError(
            f"systemd socket activation: fd {fd} is a TCP socket that is not listening "
            "(the socket unit needs Accept=no)"
        )
    os.set_inheritable(fd, False)
    return sock


def bound_address(sock: socket.socket) -> str | None:
    """The address a socket is bound to, or None for a wildcard (0.0.0.0, ::)."""
    host = str(sock.getsockname()[0]).partition("%")[0]
    address = ipaddress.ip_address(host)
    if address.is_unspecified:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def network_addresses(sock: socket.socket) -> list[str]:
    """The IPv4 addresses of the interfaces in `sock`'s network namespace, in the kernel's
    order (loopback first); [] when the kernel will not say."""
    buffer = ctypes.create_string_buffer(MAX_INTERFACES * IFREQ_SIZE)
    request = struct.pack("iP", len(buffer), ctypes.addressof(buffer))
    try:
        answer = fcntl.ioctl(sock.fileno(), SIOCGIFCONF, request)
    except OSError as err:
        log.warning("cannot list the network's interfaces: %s", err.strerror)
        return []
    length = struct.unpack_from("i", answer)[0]
    raw = buffer.raw[:length]
    found = []
    for start in range(0, length - IFREQ_SIZE + 1, IFREQ_SIZE):
        # struct sockaddr_in after the name: family (2 bytes), port (2), address (4)
        family = struct.unpack_from("H", raw, start + IFNAMSIZ)[0]
        if family == socket.AF_INET:
            found.append(socket.inet_ntoa(raw[start + IFNAMSIZ + 4 : start + IFNAMSIZ + 8]))
    return found


def phone_address(addresses: list[str]) -> str | None:
    """The first of `addresses` in the private or link-local ranges (PHONE_NETWORKS)."""
    for text in addresses:
        address = ipaddress.ip_address(text)
        if any(address in network for network in PHONE_NETWORKS):
            return text
    return None
