"""What every response says to the browser about itself, and which browser origins may call the APIs.

The published pages carry no inline script or style and load nothing from another origin,
so the policy is the strict one: everything from this origin, nothing inline, no frames.
Which origin is "this one" is never read from the request's `Host` (anyone can write it;
DNS rebinding relies on it): it is the origin of TRIGSIGHT_PUBLIC_URL, or loopback when
that is unset.
"""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from .http_errors import error_response

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",        # data: for small images an author's stylesheet may inline
    "font-src 'self'",
    "connect-src 'self'",          # chat.js streams from /api/chat
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
# Development extras only: the gate report (/reports/browser) has an inline <style>, and the
# report link added to every page carries a style attribute.
DEV_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",                       # frame-ancestors for browsers that predate it
    "Referrer-Policy": "same-origin",                # another site never learns which page a reader was on
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
                          "accelerometer=(), gyroscope=(), magnetometer=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
LOOPBACK_NAMES = ("localhost",)
ALLOWED_API_METHODS = "POST, OPTIONS"     # what the APIs answer; everything else is 405


def add_headers(response: Response) -> Response:
    settings = current_app.config["SETTINGS"]
    response.headers.setdefault("Content-Security-Policy", DEV_CSP if settings.dev else CSP)
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def public_origin(public_url: str) -> str | None:
    """`scheme://host[:port]` of the public URL, lower-cased; None when the setting is empty."""
    if not public_url:
        return None
    parts = urlsplit(public_url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def is_loopback_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    try:
        _ = parts.port   # a malformed port raises
    except ValueError:
        return False
    if parts.hostname.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str | None, public_url: str) -> bool:
    """May a browser page at `origin` call the APIs? No Origin header: not a browser's cross-site call."""
    if origin is None:
        return True
    expected = public_origin(public_url)
    if expected is not None:
        return origin.lower() == expected
    return is_loopback_origin(origin)


def request_origin_allowed() -> bool:
    return origin_allowed(request.headers.get("Origin"), current_app.config["SETTINGS"].public_url)


def link_base(public_url: str) -> str:
    """What MCP links start with: the public URL without its trailing slash, or nothing (relative)."""
    return public_url.rstrip("/")


def answer_preflight():
    """OPTIONS on an API: what it allows (POST), and no cross-origin grant to anyone.

    No Access-Control-* header is ever sent, so a page on another origin can never read an
    API's answer; a foreign Origin is refused outright rather than told the methods.
    """
    if request.method != "OPTIONS" or not request.path.startswith("/api/"):
        return None
    if not request_origin_allowed():
        return error_response(403, f"Origin {request.headers.get('Origin')!r} may not call this API.")
    return Response(status=204, headers={"Allow": ALLOWED_API_METHODS})


def init_app(app: Flask) -> None:
    app.before_request(answer_preflight)
    app.after_request(add_headers)
