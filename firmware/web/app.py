"""The owner's web app on the real table (`arcana-table run` with `[web] enabled = true`).

    live = LiveTable(loop, profile, games)
    app = make_app(live, Pairing(state_dir), address="192.168.1.20", port=8080)
    Running(app, host="0.0.0.0", port=8080)

Everything passes `firmware.web.guard` first (Host, Origin, JSON bodies; as the simulator),
then `_paired`: without a paired device's cookie only the pairing page is served.

    GET  /pair/<code>                 the pairing page (also /PAIR/<code>: the QR code's case)
    POST /api/pair    {"code", "name"}     -> a device and its token, in the cookie
    GET  /            the phone's page (paired)
    GET  /api/me                      this device and its role
    GET  /api/state                   the table; a seat's own hand and secrets for a seat
    GET  /api/words[?language=fa]     the pages' words (also unpaired: the pairing page's)
    GET  /api/events                  server-sent events: "version" when something changed
    POST /api/revoke  {"id"}          unpair a device (the owner: any; others: themselves)
    GET  /api/devices                 (owner) the paired devices and the open offer's role
    POST /api/offers  {"seat": N} | {"spectator": true}   (owner) a code on the status OLED
    POST /api/offers/withdraw         (owner) close the open code
    GET  /progress                    the owner's catalog progress page (import and export,
                                      Res Arcana enrollment)
    GET  /api/catalog/progress        (owner) cards entered and missing, duplicates, tags
    GET  /api/catalog/export?format=toml|csv          (owner) the catalog file, downloaded
    POST /api/catalog/import  {"format", "data"}       (owner) checked, then written
    GET  /api/bindings/export?game=arcana|res-arcana  (owner) the tag bindings as CSV
    POST /api/bindings/import {"game", "data", "rebind"}   (owner) all or nothing
    GET  /api/enroll/res-arcana       (owner) Res Arcana's cards, their tags, the last tap
    POST /api/enroll/res-arcana {"tap", "card", "rebind"}  (owner) bind the tapped tag
    POST /api/catalog/building {"on"}  (owner) the catalog builder (firmware/web/catalog_form.py):
    GET  /api/catalog/tap              the last tap and its form,
    POST /api/catalog/check            a draft card's problems by field,
    POST /api/catalog/save             save it into the owner's catalog file and bind the tag
    GET  /api/history                 (owner) the journalled games (firmware/web/history.py)
    GET  /api/history/<game>/record   (owner) a game record, the bytes `export` writes
    GET  /api/history/<game>/rounds   (owner) a finished game round by round

Roles (firmware/web/pairing.py): the owner sees the public table and manages devices; a
seat sees the public table and its own hand (`firmware.web.views`); a spectator, if the
profile allows them, the public table only. No role sees another seat's secrets.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from firmware.web import guard, history_routes, stream
from firmware.web.catalog_form import CatalogForm
from firmware.web.catalog_transfer import FILE as CATALOG_FILE
from firmware.web.enrollment_page import ResArcanaEnrollment
from firmware.web.live import LiveTable
from firmware.web.owner_catalog import OwnerCatalog
from firmware.web.pages import Pages, no_icon
from firmware.web.pairing import Device, Pairing, PairingRefused, Role
from firmware.web.sentences import said
from firmware.web.stream import Stream
from firmware.web.table_view import BadInput
from firmware.web.taps import Taps
from firmware.web.words import words_handler

COOKIE = "arcana_table"
COOKIE_MAX_AGE = 365 * 24 * 3600
PAGE_FILES = {
    "phone.html": "text/html",
    "phone.js": "text/javascript",
    "catalog.js": "text/javascript",
    "pair.html": "text/html",
    "pair.js": "text/javascript",
    "progress.html": "text/html",
    "progress.js": "text/javascript",
    "history.js": "text/javascript",
    "web.css": "text/css",
    "words.js": "text/javascript",
    "api.js": "text/javascript",
}
PAGES = Pages("firmware.web", PAGE_FILES)
OPEN_FILES = {"pair.js", "web.css", "words.js"}  # what the pairing page needs before pairing
LIVE: web.AppKey[LiveTable] = web.AppKey("live", LiveTable)
PAIRING: web.AppKey[Pairing] = web.AppKey("pairing", Pairing)
STREAM: web.AppKey[Stream] = web.AppKey("stream", Stream)
SETTINGS: web.AppKey[dict[str, Any]] = web.AppKey("settings", dict)
DEVICE: web.RequestKey[Device] = web.RequestKey("device", Device)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def pairing_url(address: str, port: int, code: str) -> str:
    host = f"[{address}]" if ":" in address else address
    shown = host if port == 80 else f"{host}:{port}"
    return f"http://{shown}/pair/{code}"


def make_app(
    live: LiveTable,
    pairing: Pairing,
    address: str,
    port: int,
    spectators: bool = False,
    body_s: float = guard.BODY_S,
) -> web.Application:
    """The web app around a LiveTable; `address`/`port` go into the pairing QR codes."""
    app = guard.application(
        None,
        body_s=body_s,
        middlewares=[_refusals, _paired],
        language=_refusal_language,
        spoken=lambda: live.language,  # the site's own answers, before there is a request
    )
    app[LIVE] = live
    app[PAIRING] = pairing
    app[STREAM] = Stream()
    app[SETTINGS] = {"address": address, "port": port, "spectators": spectators}
    app.router.add_get("/", PAGES.handler("phone.html"))
    app.router.add_get("/pair/{code}", PAGES.handler("pair.html"))
    app.router.add_get("/PAIR/{code}", PAGES.handler("pair.html"))
    app.router.add_get("/page/{name}", PAGES.file)
    app.router.add_get("/favicon.ico", no_icon)
    app.router.add_post("/api/pair", _pair)
    app.router.add_get("/api/me", _me)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/words", words_handler(_language))
    app.router.add_get("/api/events", _events)
    app.router.add_post("/api/revoke", _revoke)
    app.router.add_get("/api/devices", _devices)
    app.router.add_post("/api/offers", _offer)
    app.router.add_post("/api/offers/withdraw", _withdraw)
    taps = Taps()  # what the table loop saw tapped (enrollment binds the tag just tapped)
    live.loop.on_event.append(taps.record)
    shelf = OwnerCatalog(live, pairing.path.parent / CATALOG_FILE)  # the builder's file
    enrolling = ResArcanaEnrollment(live, taps)
    app.router.add_get("/progress", PAGES.handler("progress.html"))
    app.router.add_get("/api/catalog/progress", _for_owner(shelf.progress))
    app.router.add_get("/api/catalog/export", _for_owner(shelf.export_catalog))
    app.router.add_post("/api/catalog/import", _for_owner(shelf.import_catalog))
    app.router.add_get("/api/bindings/export", _for_owner(shelf.export_bindings))
    app.router.add_post("/api/bindings/import", _for_owner(shelf.import_bindings))
    app.router.add_get("/api/enroll/res-arcana", _for_owner(enrolling.cards))
    app.router.add_post("/api/enroll/res-arcana", _for_owner(enrolling.bind))
    form = CatalogForm(live, shelf.path, _owner)  # the same file
    app.router.add_post("/api/catalog/building", form.building)
    app.router.add_get("/api/catalog/tap", form.tap)
    app.router.add_post("/api/catalog/check", form.check)
    app.router.add_post("/api/catalog/save", form.save)
    history_routes.add_routes(app, live.journal.path.parent, _owner)
    app.on_startup.append(_listen)
    app.on_shutdown.append(_end_streams)
    return app


def overlay_pending(pairing: Pairing, address: str, port: int) -> Callable[[], Any]:
    """For `QrOverlay`: the open code's URL and role label, or None."""

    def pending() -> tuple[str, str] | None:
        try:
            offer = pairing.pending()
        except PairingRefused:  # a damaged file: no QR code (the web app says why)
            return None
        if offer is None:
            return None
        return pairing_url(address, port, offer.code), offer.role.label

    return pending


# -- middlewares ------------------------------------------------------------------------------
def _is_open(request: web.Request) -> bool:
    path = request.path
    if path.startswith(("/pair/", "/PAIR/")) or path == "/favicon.ico":
        return True
    if path == "/api/pair" and request.method == "POST":
        return True
    if path == "/api/words":  # the catalogs' words: the pairing page speaks the table's language
        return True
    return path.startswith("/page/") and path.removeprefix("/page/") in OPEN_FILES


@web.middleware
async def _paired(request: web.Request, handler: Handler) -> web.StreamResponse:
    device = request.app[PAIRING].device_for(request.cookies.get(COOKIE))
    if device is not None:
        request[DEVICE] = device
    elif not _is_open(request):
        raise guard.Refused(401, said("not_paired"))
    return await handler(request)


@web.middleware
async def _refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except PairingRefused as err:
        raise guard.Refused(err.status, err.message) from None
    except BadInput as err:
        raise guard.Refused(err.status, err.message) from None
    except TimeoutError:
        raise guard.Refused(503, said("no_answer")) from None


def _owner(request: web.Request) -> Device:
    device = request[DEVICE]
    if device.role.kind != "owner":
        raise guard.Refused(403, said("owner_only"))
    return device


def _for_owner(handler: Handler) -> Handler:
    """`handler` for the owner's phone only (403 for any other)."""

    async def owner_only(request: web.Request) -> web.StreamResponse:
        _owner(request)
        return await handler(request)

    return owner_only


# -- pairing ----------------------------------------------------------------------------------
async def _pair(request: web.Request) -> web.Response:
    body = guard.json_object(request, ("code",))
    pairing = request.app[PAIRING]
    device, token = pairing.redeem(body["code"], body.get("name", ""))
    request.app[LIVE].wake()  # the QR code goes, the status screen comes back
    response = web.json_response({"device": device.to_json()})
    response.set_cookie(
        COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=COOKIE_MAX_AGE
    )
    return response


async def _me(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS]
    return web.json_response(
        {"device": request[DEVICE].to_json(), "spectators": settings["spectators"]}
    )


async def _revoke(request: web.Request) -> web.Response:
    body = guard.json_object(request, ("id",))
    me = request[DEVICE]
    if body["id"] != me.id and me.role.kind != "owner":
        raise guard.Refused(403, said("unpair_self_only"))
    gone = request.app[PAIRING].revoke(body["id"])
    response = web.json_response({"revoked": gone.to_json()})
    if gone.id == me.id:
        response.del_cookie(COOKIE, path="/")
    return response


async def _devices(request: web.Request) -> web.Response:
    _owner(request)
    pairing = request.app[PAIRING]
    offer = pairing.pending()
    return web.json_response(
        {
            "devices": [device.to_json() for device in pairing.devices()],
            "offer": None
            if offer is None
            else {"role": offer.role.to_json(), "until": offer.until},
        }
    )


async def _offer(request: web.Request) -> web.Response:
    _owner(request)
    body = guard.json_object(request, ())
    if body.get("spectator") is True:
        if not request.app[SETTINGS]["spectators"]:
            raise guard.Refused(403, said("no_spectators_profile"))
        role = Role.spectator()
    elif "seat" in body:
        role = Role.of_seat(body["seat"])
    else:
        raise guard.Refused(400, said("say_whom"))
    offer = request.app[PAIRING].offer(role)
    request.app[LIVE].wake()  # the QR code on the status screen now
    return web.json_response({"offer": {"role": role.to_json(), "until": offer.until}})


async def _withdraw(request: web.Request) -> web.Response:
    _owner(request)
    guard.json_object(request, ())
    request.app[PAIRING].withdraw()
    request.app[LIVE].wake()
    return web.json_response({"offer": None})


# -- the table --------------------------------------------------------------------------------
def _seat_of(device: Device, request: web.Request) -> int | None:
    """The player index a device may see the hand of (None: the public table only)."""
    role = device.role
    if role.kind == "spectator" and not request.app[SETTINGS]["spectators"]:
        raise guard.Refused(403, said("no_spectators_now"))
    return role.seat - 1 if role.kind == "seat" and role.seat is not None else None


async def _state(request: web.Request) -> web.Response:
    device = request[DEVICE]
    seat = _seat_of(device, request)
    live = request.app[LIVE]
    public = await live.read_state(None)
    if seat is None or seat >= len(public["players"]):
        return web.json_response({**public, "me": device.to_json()})
    return web.json_response({**await live.read_state(seat), "me": device.to_json()})


async def _language(request: web.Request) -> str | None:
    live = request.app[LIVE]
    return await live.ask(live.companion.current_language)


async def _refusal_language(request: web.Request) -> str | None:
    """The language of the game last drawn: a refusal does not wait for a busy table."""
    return request.app[LIVE].language


async def _events(request: web.Request) -> web.StreamResponse:
    _seat_of(request[DEVICE], request)
    live = request.app[LIVE]
    return await stream.serve(request, request.app[STREAM], lambda: live.version)


async def _listen(app: web.Application) -> None:
    import asyncio

    loop = asyncio.get_running_loop()
    app[LIVE].on_version = lambda version: loop.call_soon_threadsafe(app[STREAM].publish, version)


async def _end_streams(app: web.Application) -> None:
    app[STREAM].publish(-1)
