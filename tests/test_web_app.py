"""The phone page as a web app: compressed text, its files asked for at once, a manifest and icons for the home
screen, its language and a description (what a Lighthouse run checks first), on the real aiohttp app."""

from __future__ import annotations

import gzip
import json
import re
import struct
import zlib
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from shooter.web.server import STATIC
from tests import icons
from tests.test_web_api import run_web

INDEX = (STATIC / "index.html").read_text(encoding="utf-8")
HEAD = INDEX[:INDEX.index("</head>")]


async def raw(web, path: str, encoding: str | None = "gzip, deflate, br"):
    """``path``'s response and its body as sent (not decompressed)."""
    headers = {"Accept-Encoding": encoding} if encoding else {}
    response = await web.client.get(path, headers=headers, auto_decompress=False,
                                    skip_auto_headers=() if encoding else ("Accept-Encoding",))
    return response, await response.read()


def test_text_goes_out_compressed_to_a_browser_that_accepts_it():
    async def body(web):
        total, sent = 0, 0
        scripts = [(f"/static/{js.name}", js) for js in sorted(STATIC.glob("*.js"))]   # the page's every module
        for path, source in [("/", STATIC / "index.html"), *scripts,
                             ("/static/style.css", STATIC / "style.css"), ("/i18n/en.json", None),
                             ("/options.json", None), ("/manifest.webmanifest", STATIC / "manifest.webmanifest"),
                             ("/static/icon.svg", STATIC / "icon.svg")]:
            response, data = await raw(web, path)
            assert response.status == 200, path
            assert response.headers.get("Content-Encoding") in ("gzip", "deflate"), (path, response.headers)
            assert "Accept-Encoding" in response.headers.get("Vary", ""), path
            plain = gzip.decompress(data) if response.headers["Content-Encoding"] == "gzip" else \
                zlib.decompress(data)
            if source is not None:
                assert plain == source.read_bytes(), path
            total, sent = total + len(plain), sent + len(data)
            plain_response, plain_data = await raw(web, path, encoding=None)   # no Accept-Encoding: as it is
            assert "Content-Encoding" not in plain_response.headers and plain_data == plain, path
        # the page's text is a fraction of its size on the wire (small modules squeeze a little less than one file)
        assert sent < total * 0.4, (sent, total)
        png, data = await raw(web, "/static/icon-192.png")
        assert png.status == 200 and "Content-Encoding" not in png.headers and data.startswith(b"\x89PNG")
        refused, _ = await raw(web, "/static/nothing.js")
        assert refused.status == 404 and refused.headers["X-Frame-Options"] == "DENY"
    run_web(body)


async def exchange(web, requests: list[str]) -> bytes:
    """What the server sends back on ONE keep-alive connection for ``requests`` (request heads), read to the end:
    a browser reuses its connections, so every byte of one reply that is not in its framing spoils the next."""
    import asyncio
    reader, writer = await asyncio.open_connection(web.client.server.host, web.client.server.port)
    host = f"{web.client.server.host}:{web.client.server.port}"
    for n, head in enumerate(requests):
        last = "Connection: close\r\n" if n == len(requests) - 1 else ""
        writer.write(f"{head}\r\nHost: {host}\r\nAccept-Encoding: gzip\r\n{last}\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return data


def replies(data: bytes, methods: list[str]) -> list[tuple[int, dict[str, str], bytes]]:
    """The replies in ``data`` as HTTP/1.1 frames them (Content-Length, chunked, or none for a 304 and a HEAD);
    a reply that does not start where the last one ended fails here, as it fails a browser."""
    out = []
    for method in methods:
        assert data.startswith(b"HTTP/1.1 "), f"a reply starts with {data[:40]!r}"
        head, data = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
        body = b""
        if method == "HEAD" or status in (204, 304):
            pass   # no body, whatever the headers say
        elif headers.get("transfer-encoding") == "chunked":
            while True:
                size_line, data = data.split(b"\r\n", 1)
                size = int(size_line, 16)
                body, data = body + data[:size], data[size + 2:]
                if size == 0:
                    break
        else:
            size = int(headers.get("content-length", "0"))
            body, data = data[:size], data[size:]
        out.append((status, headers, body))
    assert data == b"", f"bytes after the last reply: {data[:40]!r}"
    return out


def test_a_reply_without_a_body_sends_none_compressed_or_not():
    """A reload revalidates every file (Cache-Control: no-cache): the 304s, and any reply to a HEAD, carry no
    bytes after their headers. aiohttp's compression wrote an empty gzip stream there; the browser read it as
    the start of its next reply, and a reloaded page never connected (a CI run of the page tests)."""
    async def body(web):
        for path in ("/", "/static/app.js", "/static/style.css", "/i18n/en.json", "/manifest.webmanifest"):
            (status, headers, plain), = replies(await exchange(web, [f"GET {path} HTTP/1.1"]), ["GET"])
            assert status == 200 and headers.get("content-encoding") == "gzip", (path, headers)
            tag, modified = headers.get("etag"), headers.get("last-modified")
            heads = [f"HEAD {path} HTTP/1.1"]
            if tag:
                heads.append(f"GET {path} HTTP/1.1\r\nIf-None-Match: {tag}")
            if modified:
                heads.append(f"GET {path} HTTP/1.1\r\nIf-Modified-Since: {modified}")
            heads.append(f"GET {path} HTTP/1.1")   # and then the file once more, on the same connection
            got = replies(await exchange(web, heads), [h.split()[0] for h in heads])
            assert [status for status, _, _ in got] == [200] + [304] * (len(heads) - 2) + [200], (path, got)
            assert gzip.decompress(got[-1][2]) == gzip.decompress(plain), path
    run_web(body)


def test_the_manifest_makes_a_standalone_portrait_app_with_its_icons():
    async def body(web):
        response, data = await raw(web, "/manifest.webmanifest", encoding=None)
        assert response.status == 200 and response.content_type == "application/manifest+json"
        manifest = json.loads(data)
        assert manifest["display"] == "standalone" and manifest["orientation"] == "portrait"
        assert manifest["start_url"] == "/" and manifest["name"] and manifest["short_name"]
        sizes = {icon["sizes"] for icon in manifest["icons"]}
        assert {"any", "192x192", "512x512"} <= sizes
        assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])
        for icon in manifest["icons"]:
            served, data = await raw(web, icon["src"], encoding=None)
            assert served.status == 200 and served.content_type == icon["type"], icon
            if icon["type"] == "image/png":
                width, height = struct.unpack(">II", data[16:24])   # the IHDR chunk
                assert f"{width}x{height}" == icon["sizes"], icon
    run_web(body)


def test_the_icons_are_the_ones_the_script_draws():
    drawn = icons.files()
    assert (STATIC / "icon.svg").read_bytes() == drawn["icon.svg"]
    assert (STATIC / "icon-192.png").read_bytes() == drawn["icon-192.png"]
    assert (STATIC / "icon-512.png").read_bytes()[:24] == drawn["icon-512.png"][:24]   # its size; drawn alike


def test_the_head_has_language_description_manifest_icons_and_asks_for_the_files_at_once():
    assert re.search(r'<html lang="en">', INDEX)
    assert re.search(r'<meta name="description" content="[^"]{50,160}">', HEAD)
    assert re.search(r'<meta name="viewport" content="[^"]*width=device-width', HEAD)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in HEAD
    assert re.search(r'<link rel="icon" href="/static/icon.svg"', HEAD)
    assert re.search(r'<link rel="apple-touch-icon" href="/static/icon-192.png"', HEAD)
    # what the script fetches before it can draw anything is asked for with the style sheet, not after the script
    app = (STATIC / "app.js").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="preload" href="([^"]+)"', HEAD))
    assert "/static/app.js" in preloaded
    for path in ("/options.json", "/i18n/en.json"):
        assert path in preloaded
        assert path.rsplit("/", 1)[-1].split(".")[0] in app   # app.js asks for it (options.json, i18n/${lang})
    for link in re.findall(r'<link rel="preload" [^>]*as="fetch"[^>]*>', HEAD):
        assert "crossorigin" in link, link   # else the browser fetches it twice
    # app.js is an ES module: each module it needs, and those need, is asked for at once, not found one import at a
    # time; the module script itself is preloaded as a module is fetched (crossorigin), else it is fetched twice
    imported = {f"/static/{name}" for js in STATIC.glob("*.js")
                for name in re.findall(r'from "\./([a-z]+\.js)"', js.read_text(encoding="utf-8"))}
    assert imported and imported <= set(re.findall(r'<link rel="modulepreload" href="([^"]+)"', HEAD))
    assert re.search(r'<link rel="preload" href="/static/app.js" as="script" crossorigin>', HEAD)
    assert '<script type="module" src="/static/app.js"></script>' in HEAD


def test_every_file_the_head_names_is_served():
    async def body(web):
        for path in re.findall(r'(?:href|src)="(/[^"]*)"', HEAD):
            response, _ = await raw(web, path, encoding=None)
            assert response.status == 200, path
    run_web(body)


def test_static_files_are_not_the_test_tools():
    # axe-core (tests/test_page_axe.py) and the icon script are the tests', never shipped in the page's files
    assert not any(Path(STATIC).glob("axe*")) and not (STATIC / "icons.py").exists()
