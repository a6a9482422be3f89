"""Answering a remote browser's requests for the staged site from this machine's loopback.

A browser on another machine cannot reach the gate's gunicorn on 127.0.0.1, and the gate
opens no port to the network. Instead each remote tab routes its requests back here
(`context.route("**/*", delivery.handle …)`): this process fetches the request from the local
gunicorn and fulfils it with the site's status, headers and body, so the browser proves
exactly what the site serves, CSP and all. The body is asked for without Content-Encoding (a
fulfilled response is not decoded by Chromium); that header and the connection's own headers
are the only difference from a direct load. Playwright's `route.fetch()` would not do: over
`browser_type.connect` it runs in the remote Playwright server, which cannot reach us either.

Routing turns the browser's HTTP cache off, and Chromium asks for the favicon again on many
same-document navigations; answers the site marks `immutable` (its content-hashed static
files) are therefore kept here and given again without asking gunicorn, as a browser's cache
would.

A request that cannot be answered is aborted and recorded: the job fails loudly, instead of
the page being proven without its stylesheet.
"""
from __future__ import annotations

import asyncio
import http.client
import threading
from urllib.parse import urlsplit

from ..errors import TrigsightError

# Headers that belong to one connection, not to the response (RFC 9110 §7.6.1); Playwright sets the length.
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
              "content-length"}


class DeliveryFailed(TrigsightError):
    """A remote tab's request for the site could not be answered; its page would be proven wrongly."""


class Delivery:
    """Answers routed requests for `site` (a loopback base URL); others go to the browser's network."""

    def __init__(self, site: str = ""):
        self.site = site
        self._local = threading.local()    # one keep-alive connection per fetching thread
        self._immutable: dict[str, tuple[int, dict, bytes]] = {}   # GET URL → answer marked immutable

    async def handle(self, route, counter, undelivered: list[str]) -> None:
        """A route handler: fulfil from the site, counting in `counter.requests`, or record the failure."""
        request = route.request
        try:
            if not self.site or not _same_origin(request.url, self.site):
                await route.continue_()
                return
            try:
                answer = self._immutable.get(request.url) if request.method == "GET" else None
                if answer is None:
                    headers = await request.all_headers()
                    answer = await asyncio.to_thread(self.fetch, request.method, request.url, headers,
                                                     request.post_data_buffer)
                status, reply, body = answer
            except Exception as error:   # recorded: the job fails loudly rather than the page quietly
                undelivered.append(f"{request.url} ({first_line(error)})")
                await route.abort()
                return
            counter.requests += 1
            await route.fulfill(status=status, headers=reply, body=body)
        except Exception:   # the tab or its browser went away meanwhile; the job's work sees that
            pass

    def fetch(self, method: str, url: str, headers: dict, body: bytes | None) -> tuple[int, dict, bytes]:
        """The site's answer to one request: status, headers (lower-case names), body."""
        target = urlsplit(url)
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        send = {k: v for k, v in headers.items() if not k.startswith(":") and k.lower() not in HOP_BY_HOP}
        send["accept-encoding"] = "identity"
        for attempt in (1, 2):
            connection = self._connection(fresh=attempt == 2)
            try:
                connection.request(method, path, body=body, headers=send)
                response = connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                connection.close()     # a kept-alive connection the server closed: once more on a new one
                if attempt == 2 or method not in ("GET", "HEAD"):
                    raise
        reply: dict[str, str] = {}
        for name, value in response.getheaders():
            name = name.lower()
            if name in HOP_BY_HOP:
                continue
            reply[name] = f"{reply[name]}{chr(10) if name == 'set-cookie' else ', '}{value}" if name in reply else value
        if reply.get("content-encoding", "identity") != "identity":
            raise DeliveryFailed(f"the site answered {url} with Content-Encoding {reply['content-encoding']}")
        if method == "GET" and response.status == 200 and "immutable" in reply.get("cache-control", ""):
            self._immutable[url] = (response.status, reply, data)
        return response.status, reply, data

    def _connection(self, fresh: bool) -> http.client.HTTPConnection:
        site = urlsplit(self.site)
        key = (site.hostname, site.port)
        connection = getattr(self._local, "connection", None)
        if fresh or connection is None or getattr(self._local, "key", None) != key:
            if connection is not None:
                connection.close()
            connection = http.client.HTTPConnection(site.hostname, site.port, timeout=60)
            self._local.connection, self._local.key = connection, key
        return connection


def _same_origin(url: str, site: str) -> bool:
    a, b = urlsplit(url), urlsplit(site)
    return (a.scheme, a.hostname, a.port) == (b.scheme, b.hostname, b.port)


def first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:200]
