"""What a request must be before any route sees it: from a host and origin the server was told of, and
for a body, JSON of a bounded size and nesting.

Without these checks any page the user visits could post to the table (a ``text/plain`` form post needs
no CORS preflight), and a DNS-rebinding page could read the answers: the server binds a loopback address,
but the browser that talks to it also visits other sites.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from bidbluff.arena.web.limits import MAX_BODY, MAX_DEPTH

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class BadRequestError(ValueError):
    """A request refused with ``status`` and a message that says what is allowed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def hostname(value: str) -> str:
    """``"localhost:8000"`` -> ``"localhost"``; ``"[::1]:80"`` -> ``"::1"`` (lower case)."""
    try:
        return (urlsplit("//" + value).hostname or "").lower()
    except ValueError:
        return ""


class OriginGuard:
    """ASGI middleware: refuse a request whose ``Host`` is not one of ``hosts`` (DNS rebinding), or whose
    ``Origin`` (or ``Sec-Fetch-Site``) says it comes from another site than the one it is sent to (CSRF)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in (*LOOPBACK, *hosts) if h}
        self.hosts.discard("0.0.0.0")  # a bind-everything address is no name a page is visited by
        self.hosts.discard("::")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refused = self.refusal(headers)
        if refused:
            await JSONResponse({"error": refused}, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, headers: dict[str, str]) -> str | None:
        host = headers.get("host", "")
        if hostname(host) not in self.hosts:
            return (
                f"refused: this table answers to the host names {', '.join(sorted(self.hosts))}, not {host[:60]!r} "
                f"(start it with --allow-host NAME to add one)"
            )
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin) if origin != "null" else None
            if parts is None or parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
                return f"refused: a request from the page at {origin[:80]!r} (only this table's own page may call it)"
        if headers.get("sec-fetch-site") == "cross-site":
            return "refused: a request from another site (only this table's own page may call it)"
        return None


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and dicts (counted without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


async def json_body(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's JSON object; ``BadRequestError`` for another media type (415), a body over ``limit``
    bytes (413, read no further than the limit), text that is not JSON, or nesting past ``MAX_DEPTH``."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise BadRequestError(f"send the body as JSON (Content-Type: application/json), not {media or 'none'!r}", 415)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequestError(f"the request body is over the limit of {limit:,} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequestError(f"the request body is over the limit of {limit:,} bytes", 413)
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except RecursionError:
        raise BadRequestError(f"the request body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # not JSON, not UTF-8, or a number past Python's digit limit
        raise BadRequestError("the request body is not JSON") from None
    if depth(body) > MAX_DEPTH:
        raise BadRequestError(f"the request body nests deeper than {MAX_DEPTH} levels")
    if not isinstance(body, dict):
        raise BadRequestError("the request body must be a JSON object")
    return body
