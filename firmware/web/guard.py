"""Who may ask the table what: aiohttp middleware that refuses a request before any handler
runs, with one sentence as JSON `{"error": ...}` and a 4xx status.

    app = guard.application(token=None)             # the checks below, then your routes
    async def tap(request):
        body = guard.json_object(request, ("pad", "card"))   # a dict with both keys

In the order they are checked:
1. Host (403): without a token only this machine's own names are answered (localhost,
   127.0.0.1, [::1], the address the connection came in on), with the listening port.
2. Origin, when sent, must be the server's own, `http://<Host>` (403), and Sec-Fetch-Site
   must not be cross-site or same-site (403) unless a link is followed (a GET navigation).
3. Token, when one is set, on every protected path: `Authorization: Bearer T` or `?token=T` (401).
4. A state-changing request (any method but GET and HEAD) has `Content-Type: application/json`
   (UTF-8) and no Content-Encoding (415), and its body arrives within `body_s` (408), fits in
   `max_body` bytes (413) and is one JSON value nested at most MAX_DEPTH deep (400).
Every answer forbids framing, sniffing and Referer (SAFE_HEADERS). Why these rules (DNS
rebinding, cross-site requests, a token as the proof) is in docs/simulator.md.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aiohttp import web

from engine.arcana.problems import Problem
from firmware.errors import FirmwareError, Said
from firmware.web.sentences import in_language, said

MAX_BODY = 64 * 1024
BODY_S = 10.0
MAX_DEPTH = 16
OWN_NAMES = ("localhost", "127.0.0.1", "[::1]")
READS = ("GET", "HEAD")
# Every answer: no framing (clickjacking), no sniffing JSON as a script, no Referer with the token.
SAFE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
BODY: web.RequestKey[Any] = web.RequestKey("body", object)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Language = Callable[[web.Request], Awaitable[str | None]]
# The language a refusal is answered in (the game shown: as GET /api/words picks it).
LANGUAGE: web.AppKey[Language] = web.AppKey("language", object)
# The same language asked without a request and without waiting (a plain read): what
# firmware.web.site answers in before aiohttp has a request (too many connections, not HTTP).
SPOKEN: web.AppKey[Callable[[], str | None]] = web.AppKey("spoken", object)
Middleware = Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]


class Refused(FirmwareError):
    """A request refused before it was tried: `status` (4xx) and a sentence; nothing changed.
    `more` goes into the JSON beside "error" (what a page acts on: never the sentence)."""

    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.more = more


def application(
    token: str | None = None,
    protected: str = "/api/",
    body_s: float = BODY_S,
    max_body: int = MAX_BODY,
    middlewares: Iterable[Middleware] = (),
    language: Language | None = None,
    spoken: Callable[[], str | None] | None = None,
) -> web.Application:
    """A web.Application whose every request passes the checks above (token: required on
    paths starting with `protected`); `middlewares` run after them, nearest the handler.
    Refusals made with `sentences.said` are answered in the language `language(request)`
    names (none: English); the site's own answers, before there is a request, in the one
    `spoken()` names (none: English)."""
    app = web.Application(
        middlewares=[answer_refusals, checks(token, protected, body_s, max_body), *middlewares],
        client_max_size=max_body,
    )
    app.on_response_prepare.append(_safe_headers)
    if language is not None:
        app[LANGUAGE] = language
    if spoken is not None:
        app[SPOKEN] = spoken
    return app


async def say(request: web.Request, message: str) -> str:
    """`message` in the language of the request's page (a `said` sentence; else as it is).
    A table that cannot say its language now (stopped, busy) is answered in English."""
    if not isinstance(message, Said | Problem):
        return message
    return in_language(message, await language_of(request))


async def say_all(request: web.Request, messages: Iterable[str]) -> list[str]:
    """Each of `messages` in the request's page's language (as `say`)."""
    code = await language_of(request)
    return [in_language(message, code) for message in messages]


async def language_of(request: web.Request) -> str | None:
    """The language refusals are answered in: the app's `language(request)`, else None
    (English), also when the table cannot say it now (stopped, busy)."""
    ask = request.app.get(LANGUAGE)
    if ask is None:
        return None
    try:
        return await ask(request)
    except Exception:
        return None


def json_object(request: web.Request, fields: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON body as an object holding `fields` (no body: {} if none are needed)."""
    body = request[BODY]
    if body is None and not fields:
        return {}
    if not isinstance(body, dict):
        if fields:
            raise Refused(400, said("body_not_object_with", fields=", ".join(fields)))
        raise Refused(400, said("body_not_object"))
    missing = [name for name in fields if name not in body]
    if missing:
        raise Refused(400, said("body_lacks", fields=", ".join(missing)))
    return body


def refusal(status: int, message: str, **more: Any) -> web.Response:
    return web.json_response({"error": message, **more}, status=status)


@web.middleware
async def answer_refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refused and aiohttp's own 4xx (no route, wrong method) as JSON."""
    try:
        return await handler(request)
    except Refused as err:
        response = refusal(err.status, await say(request, err.message), **err.more)
        if err.status in (408, 413):
            response.force_close()  # the rest of that body is not worth waiting for
        return response
    except web.HTTPNotFound:
        return refusal(404, await say(request, said("nothing_at", path=request.path)))
    except web.HTTPMethodNotAllowed as err:
        allowed = ", ".join(sorted(err.allowed_methods))
        message = said("method_not_allowed", method=request.method, allowed=allowed)
        return refusal(405, await say(request, message))


def checks(token: str | None, protected: str, body_s: float, max_body: int) -> Middleware:
    """The middleware that applies rules 1 to 4 (see the module's head)."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        _check_host(request, trusted_by_token=token is not None)
        _check_origin(request)
        if token is not None and request.path.startswith(protected):
            _check_token(request, token)
        if request.match_info.http_exception is not None:
            return await handler(request)  # no such route or method: say so, read nothing
        request[BODY] = None
        if request.method not in READS:
            _check_content_type(request)
            request[BODY] = _parse(await _read(request, body_s, max_body))
        return await handler(request)

    return check


# -- 1. Host ------------------------------------------------------------------------------------
def _check_host(request: web.Request, trusted_by_token: bool) -> None:
    hosts = request.headers.getall("Host", [])
    if len(hosts) != 1:
        raise Refused(400, said("host_header_count"))
    if trusted_by_token:
        return  # any of the machine's names: the token, not the name, proves who asks
    own = _own_address(request)
    name, port = _split_host(hosts[0])
    ports = (own[1], None) if own[1] == 80 else (own[1],)  # a browser leaves out :80
    if name not in (*OWN_NAMES, own[0]) or port not in ports:
        raise Refused(403, said("unknown_host", address=own[0], port=own[1], host=repr(hosts[0])))


def _own_address(request: web.Request) -> tuple[str, int]:
    """The address and port this connection came in on, as a Host header would name them."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        raise Refused(400, said("connection_closed"))
    address = ipaddress.ip_address(sockname[0].partition("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # IPv4 on a dual-stack socket (systemd's, docs/web.md)
    shown = f"[{address}]" if address.version == 6 else str(address)
    return shown, int(sockname[1])


def _split_host(value: str) -> tuple[str, int | None]:
    """'LocalHost:8080' -> ('localhost', 8080); '[::1]' -> ('[::1]', None); a bad port -> -1."""
    name, colon, port = value.strip().lower().rpartition(":")
    if not colon or (name.startswith("[") and not name.endswith("]")):
        return value.strip().lower(), None
    if not (port.isascii() and port.isdigit() and len(port) <= 5):
        return name, -1
    return name, int(port)


# -- 2. Origin ----------------------------------------------------------------------------------
def _check_origin(request: web.Request) -> None:
    own = f"{request.scheme}://{request.headers.get('Host', '').strip()}".lower()
    origin = request.headers.get("Origin")
    if origin is not None and origin.strip().lower() != own:
        raise Refused(403, said("foreign_origin", origin=repr(origin), own=own))
    site = request.headers.get("Sec-Fetch-Site", "same-origin")
    navigated = request.method == "GET" and request.headers.get("Sec-Fetch-Mode") == "navigate"
    if site in ("cross-site", "same-site") and not navigated:
        raise Refused(403, said("other_site"))


# -- 3. Token -----------------------------------------------------------------------------------
def _check_token(request: web.Request, token: str) -> None:
    given = request.query.get("token")
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        given = header.removeprefix("Bearer ").strip()
    if given is None:
        raise Refused(401, said("needs_token"))
    try:
        right = hmac.compare_digest(given.encode(), token.encode())
    except UnicodeEncodeError:  # bytes that are not UTF-8 cannot be the token
        right = False
    if not right:
        raise Refused(401, said("wrong_token"))


# -- 4. The body of a state-changing request ----------------------------------------------------
def _check_content_type(request: web.Request) -> None:
    if request.headers.get("Content-Encoding", "identity").strip().lower() != "identity":
        raise Refused(415, said("body_compressed"))
    charset = (request.charset or "utf-8").lower()
    if request.content_type != "application/json" or charset != "utf-8":
        raise Refused(415, said("needs_json_type"))


async def _read(request: web.Request, body_s: float, max_body: int) -> bytes:
    """The whole body (aiohttp stops reading at the application's client_max_size)."""
    try:
        async with asyncio.timeout(body_s):
            return await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise Refused(413, said("body_too_large", most=max_body)) from None
    except TimeoutError:
        raise Refused(408, said("body_too_slow", seconds=f"{body_s:g}")) from None
    except web.RequestPayloadError as err:
        raise Refused(400, said("body_malformed", error=str(err))) from None


def _parse(raw: bytes) -> Any:
    """One JSON value, or None for an empty body; Refused(400) for anything else."""
    if not raw:
        return None
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as err:
        raise Refused(400, said("body_not_utf8", reason=err.reason, byte=err.start)) from None
    except json.JSONDecodeError as err:  # the parser's own words, as they are
        raise Refused(400, said("body_not_json", error=str(err))) from None
    except NotANumber as err:
        raise Refused(400, said("body_not_number", name=err.name)) from None
    except ValueError:  # int() refuses to read so many digits (quadratic time)
        digits = sys.get_int_max_str_digits()
        raise Refused(400, said("body_long_number", digits=digits)) from None
    except RecursionError:
        body = _TOO_DEEP
    if body is _TOO_DEEP or _depth(body) > MAX_DEPTH:
        raise Refused(400, said("body_too_deep", most=MAX_DEPTH))
    return body


class NotANumber(FirmwareError, ValueError):
    """NaN, Infinity and -Infinity, which Python's json reads but JSON does not have."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is not a JSON number")
        self.name = name


_TOO_DEEP = object()


def _no_constant(name: str) -> Any:
    raise NotANumber(name)


def _depth(value: Any) -> int:
    deepest, level = 0, [(value, 1)]
    while level:
        item, depth = level.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        if isinstance(item, dict):
            level.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            level.extend((child, depth + 1) for child in item)
    return deepest


async def _safe_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SAFE_HEADERS)
