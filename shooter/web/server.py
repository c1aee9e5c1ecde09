"""The web console: the phone page and the protocol on a WebSocket (aiohttp).

One more console. aiohttp runs its asyncio loop on its own thread; every
command line a socket sends is *posted* to the control loop, which decides
(paired or not, which command) and answers through the socket's sink. The
page itself decides nothing about the game: it renders ``status`` and events
and sends command lines.

- ``GET /``: the page (static files shipped in the package, no build step, no CDN); ``GET /manifest.webmanifest``:
  its web app manifest (added to a phone's home screen: standalone, portrait, its icons under ``/static/``).
  Text goes out compressed to a browser that accepts it (gzip or deflate: the page is about a fifth of its size).
- ``GET /i18n/<lang>.json``: the message catalogue of the page's language; ``GET /i18n/details.json``: the
  templates that say the controller's error messages in either language with their detail (``static/details.js``).
- ``GET /options.json``: the table's options (seats, variants, editions, scorings, limits, the card pads), from
  their Python definitions (:mod:`shooter.web.options`): the page builds its new-game form and pads from it.
- ``GET /ws``: the protocol, one command line per text frame; replies and events
  come back as JSON text frames. Each socket is a :class:`~shooter.access.Caller` of the kind ``web``: the
  command table says what it may do (anyone may watch: ``status``, ``help``, ``version`` and every event; the
  rest needs a paired socket, see :mod:`shooter.web.pairing`), and the ``pair`` and ``auth`` commands set the
  token it holds. This module keeps no list of commands.

Only imported when the web console is enabled.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler

from ..access import Caller, Link
from ..i18n import CATALOGUE_DIR, LANGUAGES, details_document
from ..lograte import LogRate
from ..protocol import MAX_LINE_BYTES, dumps
from .connections import (
    CONNECTIONS,
    FD_RESERVE,
    IDLE_TIMEOUT,
    PER_ADDRESS,
    Gate,
    client_address,
    descriptor_budget,
    listen,
    loop_problems,
)
from .options import document
from .pairing import device_kind

if TYPE_CHECKING:
    from ..controller import Controller

STATIC = Path(__file__).parent / "static"
MAX_CONNECTIONS = 16
SOCKETS_PER_ADDRESS = 4   # WebSockets from one client address (a phone with a few tabs): no one holds every slot
SEND_QUEUE = 500          # JSON frames waiting for a slow socket before it is dropped
IN_FLIGHT = 8             # lines a socket may have posted but not yet answered; one more closes it
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:",
    "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
UNCOMPRESSED = (".png",)   # compressed already: gzip would only cost the Pi time


def may_have_a_body(request: web.BaseRequest) -> bool:
    """Whether the reply to this request can carry a body, as far as compression is concerned. aiohttp writes a
    compressor's empty stream (20 bytes) after a reply that has no body: a 304 to a revalidation or any reply to a
    HEAD. The browser reads those bytes as the start of its next reply on that connection, and a reloaded page
    never loaded its scripts. A conditional or ranged request therefore goes out uncompressed: a 304 then, or in
    the rare case the file changed, a plain 200."""
    return request.method == "GET" and not any(
        name in request.headers for name in ("If-None-Match", "If-Modified-Since", "If-Range", "Range"))


def same_origin(origin: str, host: str) -> bool:
    """A browser's Origin header names the page's own host:port (a page elsewhere may not drive the shooter)."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return parts.netloc.lower() == host.lower()


def host_names(listen: str) -> set[str]:
    """The names a browser may give as Host for this machine: the listen address, localhost,
    ``<hostname>`` and ``<hostname>.local`` and the addresses that name resolves to."""
    name = socket.gethostname().lower()
    names = {listen.lower(), "localhost", "127.0.0.1", "::1", name, f"{name}.local"}
    try:
        names |= {str(info[4][0]).lower() for info in socket.getaddrinfo(name, None)}
    except OSError:
        pass
    return names


def own_host(host: str, names: set[str], local: tuple[Any, ...] | None) -> bool:
    """The Host header names this machine (DNS rebinding: a foreign name that resolves here carries its own Host,
    and its Origin matches that Host) and, if it gives a port, the port it was reached on.

    ``local`` is the connection's own (address, port): the address a client reached is always ours. A Host without
    a port means the default port of the scheme the browser used (80 for http, 443 for https), which this server
    cannot know (a TLS reverse proxy on 443 or a port forward from 80 reaches it on its own port): the name decides."""
    try:
        parts = urlsplit("//" + host)
        name, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        return False
    if local is None:
        return name in names
    address = str(local[0]).lower().removeprefix("::ffff:")
    return (name in names or name == address) and port in (None, local[1])


def without_labels(status: dict[str, Any]) -> dict[str, Any]:
    """A status reply for an unpaired socket: the paired browsers by id only, the requests by number."""
    pairing = dict(status["pairing"], paired=[{"id": p["id"]} for p in status["pairing"]["paired"]],
                   requests=[{"request": r["request"], "seconds": r["seconds"]}
                             for r in status["pairing"].get("requests", ())])
    return dict(status, pairing=pairing)


class Socket(Caller):
    """One WebSocket client: a sink the controller calls on the loop's thread, and the caller of the lines it
    sends (the token it holds is set by the ``auth`` and ``pair`` handlers, dropped when it is revoked)."""

    def __init__(self, ws: web.WebSocketResponse, aio: asyncio.AbstractEventLoop, device: str, address: str = ""):
        super().__init__(Link.WEB, address=address, device=device)
        self.ws = ws
        self._aio = aio
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.alive = True
        self.posted = 0      # lines handed to the control loop (written on aiohttp's thread only)
        self.answered = 0    # lines the control loop has done (written on the loop's thread only)
        self._closing: asyncio.Future[bool] | None = None  # held: the event loop keeps a task by a weak reference

    def __call__(self, obj: dict[str, Any]) -> None:
        """From the loop's thread: hand the frame to aiohttp's loop, never block."""
        if not self.alive:
            return
        if self.token_id is None and obj.get("reply") == "status" and "pairing" in obj:
            obj = without_labels(obj)  # a watcher learns how many are paired, not whose phones
        try:
            self._aio.call_soon_threadsafe(self._put, dumps(obj))
        except RuntimeError:  # aiohttp's loop is gone
            self.alive = False

    def _put(self, text: str) -> None:
        if self.queue.qsize() >= SEND_QUEUE:  # a phone that stopped reading: drop it
            self.alive = False
            self._closing = asyncio.ensure_future(self.ws.close(message=b"too slow"))
            return
        self.queue.put_nowait(text)

    async def send_all(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return


class WebConsole:
    """The aiohttp application and, with :meth:`start`, its thread.

    ``max_connections`` WebSockets at most, ``sockets_per_address`` of them from one client address; with
    :meth:`start`, ``connections`` connections of any kind at most (fewer if the descriptor limit less
    ``fd_reserve`` leaves fewer), ``per_address`` of them from one address, each given ``idle_timeout`` s for a
    request's headers and as long idle between requests (see :mod:`shooter.web.connections`).
    Behind a reverse proxy every phone comes from the proxy's address: raise the per-address caps there."""

    def __init__(self, controller: Controller, *, post: Callable[[Callable[[], None]], object],
                 host: str = "127.0.0.1", port: int = 8080,
                 max_connections: int = MAX_CONNECTIONS, sockets_per_address: int = SOCKETS_PER_ADDRESS,
                 connections: int = CONNECTIONS, per_address: int = PER_ADDRESS, fd_reserve: int = FD_RESERVE,
                 idle_timeout: float = IDLE_TIMEOUT, log: Callable[[str], None] = lambda m: None) -> None:
        if controller.pairing is None:
            raise ValueError("the web console needs the controller's pairing (App.start_web sets it)")
        self._controller = controller
        self._pairing = controller.pairing
        self._pairing.on_revoke = self._revoked
        self._post = post
        self.host, self.port = host, port
        self.max_connections = max_connections
        self.sockets_per_address = sockets_per_address
        self._connections, self._per_address, self._fd_reserve = connections, per_address, fd_reserve
        self._idle_timeout = idle_timeout
        self.gate: Gate | None = None         # with start(): the connections open, on aiohttp's loop
        self._log = log
        # what a client can make happen at will is one line per kind a minute (on the controller's clock)
        self._rate = LogRate(lambda message: self._log(message), controller.clock.now)
        self._sockets: set[Socket] = set()   # counted on aiohttp's loop
        self._open: list[Socket] = []        # known to the control loop
        self._thread: threading.Thread | None = None
        self._aio: asyncio.AbstractEventLoop | None = None
        self._names = host_names(host)
        # the same for every request: built once (the seats without a game and the rules are set at start)
        self._options = dumps(document(players=controller.seating.default, rules=controller.table.options))
        self._details_document = dumps(details_document())

    # ---- the aiohttp application ----
    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/i18n/details.json", self._details)   # before /i18n/{lang}.json, which it would match
        app.router.add_get("/i18n/{lang}.json", self._catalogue)
        app.router.add_get("/options.json", self._table_options)
        app.router.add_get("/manifest.webmanifest", self._manifest)
        app.router.add_static("/static/", STATIC, show_index=False)
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every response carries the security headers: the refusals (403, 404, 405, 503) too."""
        local = request.transport.get_extra_info("sockname") if request.transport is not None else None
        if not own_host(request.host, self._names, local[:2] if local else None):
            raise web.HTTPForbidden(text=f"host {request.host} is not this shooter", headers=SECURITY_HEADERS)
        try:
            response = await handler(request)
        except web.HTTPException as refusal:
            refusal.headers.update(SECURITY_HEADERS)
            raise
        if not isinstance(response, web.WebSocketResponse):
            response.headers.update(SECURITY_HEADERS)
            if not request.path.endswith(UNCOMPRESSED):
                response.headers["Vary"] = "Accept-Encoding"
                if may_have_a_body(request):
                    response.enable_compression()   # only where the request's Accept-Encoding allows it
        return response

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _details(self, request: web.Request) -> web.Response:
        return web.Response(text=self._details_document, content_type="application/json")

    async def _manifest(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "manifest.webmanifest", headers={"Content-Type": "application/manifest+json"})

    async def _catalogue(self, request: web.Request) -> web.FileResponse:
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            raise web.HTTPNotFound(text=f"no catalogue {lang!r}; there are {', '.join(LANGUAGES)}")
        return web.FileResponse(CATALOGUE_DIR / f"{lang}.json")

    async def _table_options(self, request: web.Request) -> web.Response:
        return web.Response(text=self._options, content_type="application/json")

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, request.host):
            raise web.HTTPForbidden(text=f"origin {origin} may not use this shooter's console")
        if len(self._sockets) >= self.max_connections:
            raise web.HTTPServiceUnavailable(text=f"at most {self.max_connections} connections; close one")
        address = client_address(request.transport.get_extra_info("peername") if request.transport else None)
        if sum(s.address == address for s in self._sockets) >= self.sockets_per_address:
            raise web.HTTPServiceUnavailable(
                text=f"at most {self.sockets_per_address} connections from one address; close one")
        ws = web.WebSocketResponse(heartbeat=15.0, max_msg_size=4 * MAX_LINE_BYTES)
        sock = Socket(ws, asyncio.get_running_loop(), device_kind(request.headers.get("User-Agent", "")[:400]),
                      address)
        self._sockets.add(sock)  # counted before the handshake yields: the cap holds for sockets opening at once
        try:
            await ws.prepare(request)
        except BaseException:
            self._sockets.discard(sock)
            raise
        self._post(lambda: self._opened(sock))
        sender = asyncio.ensure_future(sock.send_all())
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                if sock.posted - sock.answered >= IN_FLIGHT:  # a flood: it may not starve the loop
                    self._log(f"uno-shooter: web console: a socket ({sock.device or 'no name'}) sent more than "
                              f"{IN_FLIGHT} lines without waiting for their replies; closed")
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many lines in flight")
                    break
                sock.posted += 1
                # one command line per text frame, under the line rules of every console: a line
                # break inside the frame is a control character, refused with one error reply
                self._post(partial(self._line, sock, msg.data))
        finally:
            self._sockets.discard(sock)
            sock.alive = False
            sock.queue.put_nowait(None)
            self._post(lambda: self._closed(sock))
            await sender
        return ws

    # ---- on the control loop ----
    def _opened(self, sock: Socket) -> None:
        self._open.append(sock)
        self._controller.add_sink(sock)

    def _closed(self, sock: Socket) -> None:
        if sock in self._open:
            self._open.remove(sock)
        self._controller.remove_sink(sock)
        self._pairing.cancel(sock)

    def _revoked(self, token_id: int) -> None:
        for sock in self._open:
            if sock.token_id == token_id:
                sock.holds(None)  # it may only watch from now on

    def _line(self, sock: Socket, raw: str) -> None:
        """One command line from a socket, carried out for it (the socket is the caller: the command table says
        what it may do); counted as answered once done."""
        try:
            self._controller.handle_line(raw, sock, sock)
        finally:
            sock.answered += 1

    # ---- its own thread ----
    def start(self) -> None:
        """Serve on host:port from a thread of its own; returns once listening (raises if it cannot)."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            aio = asyncio.new_event_loop()
            self._aio = aio
            asyncio.set_event_loop(aio)
            aio.set_exception_handler(loop_problems(self._rate))  # an accept out of descriptors: a line a minute
            runner = web.AppRunner(self.make_app(), handle_signals=False, access_log=None)
            # counted before the first connection: the descriptors this process holds now are not the web's
            self.gate = Gate(min(self._connections, descriptor_budget(self._fd_reserve)), self._per_address)
            try:
                aio.run_until_complete(runner.setup())
                listener = aio.run_until_complete(listen(runner, self.host, self.port, gate=self.gate,
                                                         rate=self._rate, headers=SECURITY_HEADERS,
                                                         idle_timeout=self._idle_timeout))
                self.port = listener.sockets[0].getsockname()[1]
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            ready.set()
            try:
                aio.run_forever()
            finally:
                listener.close()
                aio.run_until_complete(runner.cleanup())
                aio.close()
        self._thread = threading.Thread(target=run, name="web-console", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]

    def close(self) -> None:
        """Stop serving (safe twice)."""
        if self._aio is not None and self._thread is not None and self._thread.is_alive():
            self._aio.call_soon_threadsafe(self._aio.stop)
            self._thread.join(5.0)

