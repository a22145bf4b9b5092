"""The WeasyPrint URL fetcher that serves inline ``data:`` URIs and nothing else.

Kept apart from :mod:`reportgen.render.pdf` because it subclasses WeasyPrint's
classes (importing WeasyPrint is about half a second); ``reportgen.render.pdf``
re-exports both names on first use. See that module for the rule it enforces
(DESIGN.md, "Boundaries that must hold").
"""

from __future__ import annotations

import re
from urllib import request

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

__all__ = ["DataURLFetcher", "ForbiddenFetch"]

_DATA_URI = re.compile(r"^data:", re.IGNORECASE)


class ForbiddenFetch(FatalURLFetchingError):
    """WeasyPrint asked for a URL that is not an inline ``data:`` URI.

    A :class:`~weasyprint.urls.FatalURLFetchingError` (a ``BaseException``),
    so WeasyPrint's resource loaders do not catch it and the render stops.
    (Where WeasyPrint swallows it anyway, :attr:`DataURLFetcher.refused`
    still records the URL and the render fails afterwards.)

    Attributes:
        url: The refused URL, as WeasyPrint passed it.
    """

    def __init__(self, url: str) -> None:
        super().__init__(f"refused to fetch {url!r}: only inline data: URIs may be loaded")
        self.url = url


class DataURLFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that serves ``data:`` URIs and nothing else.

    ``data:`` URIs are decoded in memory by the standard library's
    :class:`urllib.request.DataHandler`, without going through an opener (so no
    proxy or other handler is ever consulted).
    """

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("data",), allow_redirects=False, fail_on_errors=True)
        #: Every URL refused so far. WeasyPrint swallows even fatal errors in
        #: a few places (it catches ``BaseException`` around drawing an SVG
        #: image and only logs), so the renderer checks this list afterwards.
        self.refused: list[str] = []

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        """Decode a ``data:`` URI.

        Args:
            url: The URL WeasyPrint wants.
            headers: Ignored (HTTP headers; no request is ever made).

        Returns:
            The decoded content with its media type.

        Raises:
            ForbiddenFetch: ``url`` is not a ``data:`` URI (``file:``,
                ``http:``, ``https:``, a relative path, anything else).
        """
        if not isinstance(url, str) or not _DATA_URI.match(url):
            self.refused.append(str(url))
            raise ForbiddenFetch(str(url))
        response = request.DataHandler().data_open(request.Request(url))
        with response:
            body = response.read()
        content_type = response.headers.get("Content-Type", "application/octet-stream")
        return URLFetcherResponse(url, body=body, headers={"Content-Type": content_type})
