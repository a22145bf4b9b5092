"""Fetching one web page safely and reducing it to its main text.

:class:`PageFetcher` is the only code in reportgen that reads a URL from the
internet. Every fetch is bounded and guarded:

- only ``http`` and ``https`` URLs, without user names or passwords in them;
- a total deadline (``fetch_timeout_s``) over every hop and every read, on
  top of httpx's connect/read timeouts;
- a body size cap (``fetch_max_bytes``): the body is streamed and the read
  stops one byte past the cap;
- a content-type check: HTML, XHTML and plain text, and PDF up to
  :data:`MAX_PDF_BYTES`;
- redirects followed by hand, at most ``fetch_max_redirects``, each hop
  checked again;
- an SSRF guard: the host is resolved first and the fetch refused when any
  of its addresses is not a public one (loopback, private, link-local,
  unique-local, multicast, reserved; IPv4-mapped IPv6 included). The
  connection then goes to the address that was checked (the URL's host is
  kept in the ``Host`` header and in TLS's SNI, so certificates are still
  verified against the name), so a DNS answer that changes between the check
  and the connection cannot redirect it. Environment proxies are ignored.
  ``allow_private=True`` lifts the guard (tests reach their 127.0.0.1 site).

Failures are typed (see :mod:`reportgen.errors`): what may pass is a
:class:`~reportgen.errors.FetchError` (timeout, network, HTTP 5xx) or a
:class:`~reportgen.errors.RateLimitedError` (HTTP 429), both carrying the
status and the parsed ``Retry-After``; a page that can never be used is a
:class:`~reportgen.errors.PageRejectedError` (HTTP 4xx, wrong type, too big,
empty, too many redirects) or a :class:`~reportgen.errors.BlockedURLError`.

Main text comes from ``trafilatura`` after the same hostile-markup care as
:func:`~reportgen.sources.local.html_to_text` (scripts, styles, frames,
objects, SVG and form controls are removed from the tree before extraction),
with ``html_to_text`` as the fallback when trafilatura finds nothing.
"""

from __future__ import annotations

import codecs
import email.utils
import ipaddress
import logging
import math
import re
import socket
import time
from collections.abc import Callable
from datetime import datetime, timezone
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import httpx
import lxml.etree
import lxml.html
from pydantic import BaseModel, Field

from reportgen.config import get_settings
from reportgen.errors import BlockedURLError, FetchError, PageRejectedError, RateLimitedError
from reportgen.sources.local import _decode, _NotPdfError, _pdf_to_text, html_to_text
from reportgen.sources.models import Closing
from reportgen.sources.text import clean_text

__all__ = [
    "FetchedPage",
    "MAX_PDF_BYTES",
    "PageFetcher",
    "USER_AGENT",
    "extract_main_text",
    "is_public_address",
    "normalize_url",
    "parse_retry_after",
]

logger = logging.getLogger(__name__)

#: Sent with every request: names the tool, so site owners can tell what read them.
USER_AGENT = "reportgen/0.1 (research report generator; python-httpx)"

#: Largest PDF read, in bytes: text extraction of large PDFs is slow and they
#: are rarely the page a search result meant.
MAX_PDF_BYTES = 2_000_000

#: Longest ``Retry-After`` honoured, in seconds (a day); longer values are clamped.
MAX_RETRY_AFTER_S = 86_400.0

#: Largest wait for the TCP connection, in seconds (never above the deadline).
_CONNECT_TIMEOUT_S = 5.0
_MAX_TITLE_CHARS = 200

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TEXT_TYPES = frozenset({"text/plain"})
_PDF_TYPES = frozenset({"application/pdf"})

#: Elements removed from the tree before trafilatura reads it: code, styling,
#: embedded and foreign content, form controls (``<title>`` is read first).
_DROP_TAGS = frozenset(
    {
        "script", "style", "noscript", "template", "iframe", "frame", "frameset", "object",
        "embed", "applet", "svg", "math", "canvas", "audio", "video", "picture", "img", "map",
        "link", "meta", "base", "input", "select", "textarea", "button", "param", "source",
        "track",
    }
)  # fmt: skip
_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)

#: ``(host, port) -> IP address strings``; raises ``OSError`` when the name does not resolve.
Resolver = Callable[[str, int], list[str]]


class FetchedPage(BaseModel):
    """One page read from the web and reduced to text.

    Attributes:
        url: The final URL, after redirects (the citable location).
        requested_url: The URL asked for.
        title: The page's title (``<title>``, first ``<h1>``, PDF metadata),
            ``""`` when it has none.
        text: The main text, cleaned (never empty).
        content_type: The media type served (``"text/html"``).
        status: The final HTTP status.
        size_bytes: Bytes of body read.
        redirects: The URLs that redirected, in order.
    """

    url: str
    requested_url: str
    title: str
    text: str
    content_type: str
    status: int
    size_bytes: int
    redirects: list[str] = Field(default_factory=list)


# --------------------------------------------------------------------------- helpers


def normalize_url(url: str) -> str:
    """Return the canonical form of a URL: the one rule for cache keys and reference deduplication.

    Scheme and host in lower case, the default port dropped (80 for http,
    443 for https), the fragment and a trailing slash removed, and the path
    re-quoted so ``Wind%20power`` and ``Wind power`` compare equal.

    Args:
        url: An absolute URL (``https:``, ``file:``, ``mcp:`` ...).

    Returns:
        The normalised URL; the input stripped when it cannot be parsed.
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return url.strip()
    host = (parts.hostname or "").lower()
    if port and not ((parts.scheme == "http" and port == 80) or (parts.scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    path = quote(unquote(parts.path), safe="/()_,'-:@!$*+;=~.") or "/"
    if len(path) > 1:
        path = path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), host, path, parts.query, ""))


def is_public_address(address: str) -> bool:
    """Tell whether an IP address may be fetched with the SSRF guard on.

    Refused: loopback (127.0.0.0/8, ::1), private (10/8, 172.16/12,
    192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), shared
    (100.64/10), unspecified, multicast, reserved and documentation ranges,
    and IPv4-mapped or 6to4/Teredo-embedded forms of any of them: in short,
    everything Python's :mod:`ipaddress` does not call global.

    Args:
        address: An IPv4 or IPv6 address (an IPv6 zone index is ignored).

    Returns:
        ``True`` only for a global unicast address.
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None and not is_public_address(str(embedded)):
            return False
    return ip.is_global and not ip.is_multicast


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Parse an HTTP ``Retry-After`` header (RFC 9110 §10.2.3).

    Args:
        value: The header: delay-seconds (``"120"``) or an HTTP-date
            (``"Wed, 21 Oct 2015 07:28:00 GMT"``).
        now: The current time for HTTP-dates (default: the clock, UTC).

    Returns:
        Seconds to wait (>= 0, at most :data:`MAX_RETRY_AFTER_S`), or ``None``
        when the header is missing or unreadable.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def _system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def _charset(content_type_header: str) -> str | None:
    for param in content_type_header.split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            name = value.strip().strip("\"'")
            try:
                return codecs.lookup(name).name
            except LookupError:
                return None
    return None


def _decode_body(body: bytes, charset: str | None, *, html: bool) -> str:
    """Decode a body: the declared charset, else a ``<meta charset>``, else UTF-8/cp1252."""
    if charset is None and html:
        found = _META_CHARSET_RE.search(body[:4096])
        if found:
            try:
                charset = codecs.lookup(found.group(1).decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                charset = None
    if charset is not None:
        return body.decode(charset, errors="replace")
    return _decode(body)


def _sniff(body: bytes) -> str:
    head = body[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "application/pdf"
    if head.startswith((b"<!doctype html", b"<html", b"<?xml")) or b"<body" in head:
        return "text/html"
    return ""


# --------------------------------------------------------------------------- extraction


def extract_main_text(html: str, url: str | None = None) -> tuple[str, str]:
    """Reduce a web page to its title and main text (boilerplate removed).

    Scripts, styles, frames, objects, SVG, images and form controls are cut
    from the tree first, so no code or markup can reach the text whatever
    trafilatura keeps; the tree then goes to ``trafilatura.extract`` (tables
    kept, comments, links and images left out). When trafilatura finds no
    main text (short pages often fall under its thresholds) the page goes
    through :func:`~reportgen.sources.local.html_to_text` instead.

    Args:
        html: The decoded markup.
        url: The page URL (helps trafilatura; never fetched).

    Returns:
        ``(title, text)``; ``text`` is cleaned (no control characters) and
        ``""`` when the page has none.
    """
    import trafilatura  # heavy import (~0.3 s): only when a page is read

    parser = lxml.html.HTMLParser(
        remove_comments=True, remove_pis=True, no_network=True, recover=True, huge_tree=True
    )
    try:
        root = lxml.html.fromstring(_XML_DECL_RE.sub("", html, count=1), parser=parser)
    except (lxml.etree.LxmlError, ValueError):
        root = None
    if root is None:
        return html_to_text(html)
    title = ""
    for tag in ("title", "h1"):
        found = root.find(f".//{tag}")
        if found is not None:
            title = clean_text(" ".join(found.text_content().split()))[:_MAX_TITLE_CHARS]
            if title:
                break
    for element in list(root.iter()):
        tag = element.tag
        if isinstance(tag, str) and tag.rsplit("}", 1)[-1].lower() in _DROP_TAGS:
            if element.getparent() is not None:
                element.drop_tree()
    try:
        text = trafilatura.extract(
            root,
            url=url,
            include_comments=False,
            include_tables=True,
            include_images=False,
            include_links=False,
        )
    except (lxml.etree.LxmlError, ValueError, TypeError, RecursionError):  # pragma: no cover
        logger.debug("trafilatura failed on %s", url, exc_info=True)
        text = None
    text = clean_text(text or "")
    if not text:
        fallback_title, text = html_to_text(html)
        title = title or fallback_title
    return title, text


# --------------------------------------------------------------------------- fetcher


class PageFetcher(Closing):
    """Fetch web pages with deadlines, caps, a type check and an SSRF guard.

    Thread-safe: one httpx client (its connection pool is thread-safe) serves
    every thread. Close it with :meth:`close` or use it as a context manager.

    Args:
        timeout_s: Total deadline of one :meth:`fetch`, redirects included, in
            seconds; default ``get_settings().fetch_timeout_s``.
        max_bytes: Largest body read, in bytes; default
            ``get_settings().fetch_max_bytes``.
        max_redirects: Most redirects followed; default
            ``get_settings().fetch_max_redirects``.
        allow_private: Lift the SSRF guard (tests reaching 127.0.0.1).
        user_agent: The ``User-Agent`` header.
        resolver: Name resolution for the SSRF guard, ``(host, port) -> [ip]``;
            default :func:`socket.getaddrinfo`.
        transport: An httpx transport (tests pass ``httpx.MockTransport``).
    """

    def __init__(
        self,
        *,
        timeout_s: float | None = None,
        max_bytes: int | None = None,
        max_redirects: int | None = None,
        allow_private: bool = False,
        user_agent: str = USER_AGENT,
        resolver: Resolver | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        settings = get_settings()
        self.timeout_s = float(timeout_s if timeout_s is not None else settings.fetch_timeout_s)
        self.max_bytes = int(max_bytes if max_bytes is not None else settings.fetch_max_bytes)
        self.max_redirects = int(
            max_redirects if max_redirects is not None else settings.fetch_max_redirects
        )
        self.allow_private = allow_private
        self._resolve = resolver or _system_resolver
        self._client = httpx.Client(
            headers={
                "User-Agent": user_agent,
                "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,"
                "application/pdf;q=0.5,*/*;q=0.1",
            },
            follow_redirects=False,
            trust_env=False,  # an environment proxy would bypass the SSRF guard
            transport=transport,
        )

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the HTTP client and its connections (idempotent)."""
        self._client.close()


    def __repr__(self) -> str:
        return (
            f"PageFetcher(timeout_s={self.timeout_s}, max_bytes={self.max_bytes}, "
            f"max_redirects={self.max_redirects}, allow_private={self.allow_private})"
        )

    # ------------------------------------------------------------------ fetching

    def fetch(self, url: str) -> FetchedPage:
        """Fetch one page and reduce it to its main text.

        Args:
            url: An absolute ``http`` or ``https`` URL.

        Returns:
            The page, with its final URL and non-empty text.

        Raises:
            reportgen.errors.RateLimitedError: HTTP 429 (``retry_after_s`` from
                ``Retry-After``).
            reportgen.errors.FetchError: Timeout (the deadline or an httpx
                timeout), network failure, a host that does not resolve, HTTP 5xx.
            reportgen.errors.BlockedURLError: Not http(s), credentials in the
                URL, or a non-public address (unless ``allow_private``),
                at any hop.
            reportgen.errors.PageRejectedError: HTTP 4xx other than 429, a type
                other than HTML/XHTML/text/PDF, a body over the cap, no text,
                more than ``max_redirects`` redirects.
        """
        deadline = time.monotonic() + self.timeout_s
        current = url
        redirects: list[str] = []
        try:
            while True:
                target = self._checked_url(current, requested=url)
                request = self._build_request(
                    target, requested=url, remaining=self._remaining(deadline, url)
                )
                response = self._client.send(request, stream=True)
                try:
                    if response.is_redirect:
                        location = response.headers.get("location", "")
                        if len(redirects) >= self.max_redirects:
                            raise PageRejectedError(
                                f"more than {self.max_redirects} redirects", url=url
                            )
                        redirects.append(str(target))
                        current = str(target.join(location))
                        continue
                    return self._read(response, target, url, redirects, deadline)
                finally:
                    response.close()
        except httpx.TimeoutException as exc:
            raise FetchError(
                f"{url}: timed out (deadline {self.timeout_s:g} s)", url=url
            ) from exc
        except httpx.InvalidURL as exc:
            raise BlockedURLError(f"invalid URL ({exc})", url=url) from exc
        except (httpx.TransportError, httpx.StreamError) as exc:
            raise FetchError(f"{url}: network failure ({type(exc).__name__})", url=url) from exc

    def _remaining(self, deadline: float, url: str) -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchError(
                f"{url}: timed out (deadline {self.timeout_s:g} s)", url=url
            ) from TimeoutError(f"deadline of {self.timeout_s:g} s passed")
        return remaining

    def _checked_url(self, current: str, *, requested: str) -> httpx.URL:
        try:
            target = httpx.URL(current)
        except (httpx.InvalidURL, TypeError, ValueError) as exc:
            raise BlockedURLError(f"invalid URL {current!r}", url=requested) from exc
        if target.scheme not in ("http", "https"):
            raise BlockedURLError(f"scheme {target.scheme or 'none'!r} refused", url=requested)
        if not target.host:
            raise BlockedURLError("URL has no host", url=requested)
        if target.userinfo:
            raise BlockedURLError("credentials in URL refused", url=requested)
        return target.copy_with(fragment=None)

    def _build_request(
        self, target: httpx.URL, *, requested: str, remaining: float
    ) -> httpx.Request:
        """Build the GET of one hop; with the guard on, pinned to a checked public address.

        httpx's timeouts (each read, the connection) never reach past the
        remaining time of the deadline.
        """
        timeout = httpx.Timeout(remaining, connect=min(_CONNECT_TIMEOUT_S, remaining))
        if self.allow_private:
            return self._client.build_request("GET", target, timeout=timeout)
        host = target.raw_host.decode("ascii")  # IDNA-encoded
        port = target.port or (443 if target.scheme == "https" else 80)
        addresses = self._addresses(host, port, requested)
        refused = [a for a in addresses if not is_public_address(a)]
        if refused:
            raise BlockedURLError(
                f"{host} resolves to a non-public address ({refused[0]})", url=requested
            )
        pinned = target.copy_with(host=addresses[0].split("%", 1)[0])
        extensions = {"sni_hostname": host} if target.scheme == "https" else {}
        return self._client.build_request(
            "GET",
            pinned,
            headers={"Host": target.netloc.decode("ascii")},
            extensions=extensions,
            timeout=timeout,
        )

    def _addresses(self, host: str, port: int, requested: str) -> list[str]:
        if _is_ip_literal(host):
            return [host]
        try:
            addresses = self._resolve(host, port)
        except (OSError, UnicodeError) as exc:
            raise FetchError(f"{requested}: cannot resolve {host!r}", url=requested) from exc
        if not addresses:
            raise FetchError(f"{requested}: cannot resolve {host!r}", url=requested)
        return addresses

    def _read(
        self,
        response: httpx.Response,
        target: httpx.URL,
        requested: str,
        redirects: list[str],
        deadline: float,
    ) -> FetchedPage:
        status = response.status_code
        if status == 429:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            raise RateLimitedError(
                f"{requested}: HTTP 429 (rate limited)",
                url=requested,
                http_status=status,
                retry_after_s=retry_after,
            )
        if status >= 500:
            raise FetchError(
                f"{requested}: HTTP {status}",
                url=requested,
                http_status=status,
                retry_after_s=parse_retry_after(response.headers.get("retry-after")),
            )
        if status >= 300 or status < 200:
            raise PageRejectedError(f"HTTP {status}", url=requested, http_status=status)

        header = response.headers.get("content-type", "")
        media = header.split(";", 1)[0].strip().lower()
        if media and media not in _HTML_TYPES | _TEXT_TYPES | _PDF_TYPES:
            raise PageRejectedError(f"not a readable type ({media})", url=requested)
        limit = MAX_PDF_BYTES if media in _PDF_TYPES else self.max_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise PageRejectedError(
                f"larger than {limit:,} bytes ({int(declared):,} declared)", url=requested
            )

        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise PageRejectedError(f"larger than {limit:,} bytes", url=requested)
            chunks.append(chunk)
            self._remaining(deadline, requested)
        body = b"".join(chunks)
        if not media:
            media = _sniff(body)
            if not media:
                raise PageRejectedError("no content type", url=requested)
            if media in _PDF_TYPES and size > MAX_PDF_BYTES:
                raise PageRejectedError(f"larger than {MAX_PDF_BYTES:,} bytes", url=requested)

        final = str(target)
        if media in _PDF_TYPES:
            try:
                title, text = _pdf_to_text(body)
            except _NotPdfError as exc:
                raise PageRejectedError(str(exc), url=requested) from exc
        elif media in _TEXT_TYPES:
            title, text = "", clean_text(_decode_body(body, _charset(header), html=False))
        else:
            html = _decode_body(body, _charset(header), html=True)
            title, text = extract_main_text(html, final)
        if not text:
            raise PageRejectedError("no text", url=requested)
        return FetchedPage(
            url=final,
            requested_url=requested,
            title=title,
            text=text,
            content_type=media,
            status=status,
            size_bytes=size,
            redirects=redirects,
        )
