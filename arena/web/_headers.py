"""The security headers of every answer the run's web gives (docs/web.md, "Security").

:class:`SecurityHeaders` is an ASGI middleware inside the app (:class:`~arena.web.RunWeb`):
every HTTP answer of every route, the run's pages, the report, the people's tables and the
routes served beside them (a competition's ``/enter`` and ``/entrant/NAME``), carries
:data:`SECURITY_HEADERS`, so no page may forget them. A route that sets one of these
headers itself keeps its own.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "SECURITY_HEADERS", "SecurityHeaders"]

CSP: Final = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
              "form-action 'self'; frame-ancestors 'self'")
"""The Content-Security-Policy of every page: scripts, styles, sockets and frames from the
server alone, no inline script or style attribute, images from the server or ``data:``
(the pages' empty icon), and framed only by the server's own pages (``/`` frames
``/report/``)."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "SAMEORIGIN",
}
"""The headers every answer carries: the CSP, no guessing of a file's type, no address
(a seat's carries its token) sent to another site, no framing by another site."""

_ENCODED: Final = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                   for name, value in SECURITY_HEADERS.items()]


class SecurityHeaders:
    """The ASGI middleware that adds :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in _ENCODED if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
