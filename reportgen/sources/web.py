"""The web as a search backend: ddgs results, fetched pages, a per-run cache, and ``auto``.

:class:`WebSearch` asks a search engine (``ddgs`` by default; any
``search_fn(query, max_results) -> [{"title", "href", "body"}]`` will do),
fetches every result page with :class:`~reportgen.sources.fetch.PageFetcher`
(in parallel, a few at a time), cuts each page's main text into passages and
returns the passages that best cover the query::

    with WebSearch() as web:
        passages = web.search("solar capacity by year", k=8)
        limitations = [f"{url}: {reason}" for url, reason in web.skipped]

Everything it reads goes through one :class:`WebCache`, owned by the run:
sections that share a query, or pages that several queries find, are searched
and fetched once. Concurrent callers asking for the same query or URL wait for
the one request in flight instead of repeating it.

:class:`AutoSearch` is the ``auto`` search mode: the web when it answers, the
offline corpora when it fails or finds nothing, each fallback recorded in
:attr:`AutoSearch.reroutes` for the run's ACP log.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import httpx
from pydantic import BaseModel

from reportgen.errors import (
    FetchError,
    PageRejectedError,
    RateLimitedError,
    ReportgenError,
    SourceError,
)
from reportgen.sources.fetch import FetchedPage, PageFetcher, normalize_url
from reportgen.sources.index import PASSAGE_CHARS, MultiSearch
from reportgen.sources.models import Closing, Document, Passage, SearchBackend
from reportgen.sources.text import chunk_text, clean_text, stopwords, tokenize

__all__ = [
    "AutoSearch",
    "SearchFn",
    "SearchResult",
    "WebCache",
    "WebSearch",
    "ddgs_search",
    "open_search",
    "web_source_id",
]

logger = logging.getLogger(__name__)

#: ``(query, max_results) -> result dicts`` with ``"href"`` (or ``"url"``),
#: ``"title"`` and ``"body"`` keys: the shape of ``ddgs.DDGS().text``.
SearchFn = Callable[[str, int], list[dict[str, Any]]]

#: Deadline of one ddgs search, in seconds (ddgs queries several engines at once).
DDGS_TIMEOUT_S = 10


def ddgs_search(query: str, max_results: int, *, client: Any = None) -> list[dict[str, Any]]:
    """Search the web through ``ddgs`` (the default ``search_fn`` of :class:`WebSearch`).

    Args:
        query: Free text.
        max_results: Most results wanted.
        client: The ddgs client, anything with ``.text(query, max_results=n)``;
            default a new ``ddgs.DDGS`` with a 10 s timeout.

    Returns:
        ``ddgs.DDGS().text`` result dicts (``title``, ``href``, ``body``).

    Raises:
        reportgen.errors.RateLimitedError: The engines rate-limited us.
        reportgen.errors.FetchError: Timeout or any other ddgs failure (ddgs
            reports "no results" as a failure too, with the same class).
    """
    from ddgs import DDGS
    from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

    if client is None:
        client = DDGS(timeout=DDGS_TIMEOUT_S)
    try:
        results: list[dict[str, Any]] = client.text(query, max_results=max_results)
    except RatelimitException as exc:
        raise RateLimitedError(f"web search rate limited: {exc}") from exc
    except TimeoutException as exc:
        raise FetchError(f"web search timed out: {exc}") from exc
    except DDGSException as exc:
        raise FetchError(f"web search failed: {exc}") from exc
    return results


def web_source_id(url: str) -> str:
    """Return the stable source id of a web page: ``"web:"`` + 16 hex of SHA-1 of its URL."""
    return "web:" + hashlib.sha1(url.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class SearchResult(BaseModel):
    """One search-engine result.

    Attributes:
        url: The result's URL (normalised: no fragment).
        title: The title the engine showed.
        snippet: The engine's snippet.
        rank: Position in the engine's answer, from 0.
    """

    url: str
    title: str
    snippet: str
    rank: int


class WebCache:
    """What one run has searched and fetched, shared by every section (thread-safe).

    Search results are keyed by the query with whitespace folded and case
    ignored; pages by their normalised URL (both the URL asked for and the
    final one). A page that can never be used is remembered with its reason,
    so it is not fetched again; a failure that may pass (timeout, 5xx, 429)
    is not remembered. One request per key is in flight at a time: a second
    caller waits for the first one's answer.

    Attributes:
        searches: Queries actually sent to the search engine.
        fetches: Pages actually fetched (requests made, successful or not).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: dict[str, list[SearchResult]] = {}
        self._pages: dict[str, FetchedPage] = {}
        self._rejected: dict[str, tuple[str, int | None]] = {}
        self._by_source: dict[str, FetchedPage] = {}
        self._flights: dict[tuple[str, str], threading.Lock] = {}
        self.searches = 0
        self.fetches = 0

    @staticmethod
    def query_key(query: str) -> str:
        """Return the cache key of a query: whitespace folded, case ignored."""
        return " ".join(query.split()).casefold()

    def _flight(self, kind: str, key: str) -> threading.Lock:
        with self._lock:
            return self._flights.setdefault((kind, key), threading.Lock())

    def results(self, query: str, compute: Callable[[], list[SearchResult]]) -> list[SearchResult]:
        """Return the cached results of ``query``, computing them once when missing.

        Args:
            query: The query.
            compute: Runs the search; its exceptions propagate and are not cached.

        Returns:
            The results (a copy of the cached list).
        """
        key = self.query_key(query)
        with self._lock:
            if key in self._results:
                return list(self._results[key])
        with self._flight("search", key):
            with self._lock:
                if key in self._results:
                    return list(self._results[key])
                self.searches += 1
            found = compute()
            with self._lock:
                self._results[key] = list(found)
            return list(found)

    def page(self, url: str, compute: Callable[[], FetchedPage]) -> FetchedPage:
        """Return the cached page at ``url``, fetching it once when missing.

        Args:
            url: The URL asked for.
            compute: Fetches it. A :class:`~reportgen.errors.PageRejectedError`
                is remembered (and raised again for later callers); other
                exceptions propagate and are not cached.

        Returns:
            The page.

        Raises:
            reportgen.errors.PageRejectedError: The page was rejected (now or earlier).
        """
        key = normalize_url(url)
        with self._flight("page", key):
            with self._lock:
                if key in self._pages:
                    return self._pages[key]
                if key in self._rejected:
                    reason, status = self._rejected[key]
                    raise PageRejectedError(reason, url=url, http_status=status)
                self.fetches += 1
            try:
                page = compute()
            except PageRejectedError as exc:
                with self._lock:
                    self._rejected[key] = (exc.reason, exc.http_status)
                raise
            with self._lock:
                self._pages[key] = page
                self._pages.setdefault(normalize_url(page.url), page)
                self._by_source.setdefault(web_source_id(page.url), page)
            return page

    def get(self, source_id: str) -> FetchedPage | None:
        """Return a fetched page by its source id (see :func:`web_source_id`)."""
        with self._lock:
            return self._by_source.get(source_id)


class WebSearch(Closing):
    """The :class:`~reportgen.sources.models.SearchBackend` of the web.

    One :meth:`search` asks the engine for up to ``max_results`` results,
    fetches the pages (``max_workers`` at a time), cuts each page's text into
    passages of at most :data:`~reportgen.sources.index.PASSAGE_CHARS`
    characters and ranks them: a passage's score is the share of the query's
    content words it holds, halved for a page's second-best passage, a third
    for its third, and so on (so one long page cannot crowd out the others),
    with the engine's rank as the tie-break.

    Failures: a page that cannot be used (HTTP 4xx, wrong type, too big,
    empty, blocked address) is left out and recorded in :attr:`skipped`; a
    page that failed in a way that may pass (timeout, 5xx, 429) is recorded
    there too while other pages answered, and is raised when no page did
    (a :class:`~reportgen.errors.RateLimitedError` first, so recovery can
    honour its ``Retry-After``).

    Args:
        search_fn: The search engine, ``(query, max_results) -> result dicts``;
            default :func:`ddgs_search`. Tests pass a stub that returns URLs of
            a local site.
        fetcher: The page fetcher; default a new :class:`PageFetcher` built
            from the settings and ``allow_private`` (closed by :meth:`close`).
        cache: The run's cache; default a new one.
        max_results: Results asked of the engine per query (pages fetched).
        max_workers: Pages fetched at once per search.
        allow_private: Lift the fetcher's SSRF guard (only when ``fetcher``
            is not given; tests reach their 127.0.0.1 site with it).
        name: Backend name.

    Attributes:
        skipped: ``(url, reason)`` of every result page left out during the
            run, in order, without repeats.
    """

    def __init__(
        self,
        *,
        search_fn: SearchFn | None = None,
        fetcher: PageFetcher | None = None,
        cache: WebCache | None = None,
        max_results: int = 8,
        max_workers: int = 4,
        allow_private: bool = False,
        name: str = "web",
    ) -> None:
        self.name = name
        self.search_fn: SearchFn = search_fn or ddgs_search
        self._owns_fetcher = fetcher is None
        self.fetcher = fetcher if fetcher is not None else PageFetcher(allow_private=allow_private)
        self.cache = cache if cache is not None else WebCache()
        self.max_results = max(1, max_results)
        self.max_workers = max(1, max_workers)
        self.skipped: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ searching

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return up to ``k`` passages of web pages answering ``query``, best first.

        Args:
            query: Free text.
            k: Maximum number of passages (``< 1`` gives ``[]``).

        Returns:
            Passages by decreasing score; ``url`` is the page's final URL
            after redirects, ``source_id`` is :func:`web_source_id` of it,
            ``corpus`` is ``"web"``. Empty when the engine found nothing or no
            page was usable.

        Raises:
            reportgen.errors.RateLimitedError: The engine, or every page that
                could have answered, rate-limited us (``retry_after_s`` set
                when the server said).
            reportgen.errors.FetchError: The engine failed, or no page
                answered and at least one timed out or failed transiently.
        """
        query = " ".join(query.split())
        if k < 1 or not query:
            return []
        results = self.cache.results(query, lambda: self._run_search(query))
        if not results:
            return []
        pages: list[tuple[SearchResult, FetchedPage]] = []
        failures: list[FetchError] = []
        workers = min(self.max_workers, len(results))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="reportgen-fetch") as pool:
            futures = [
                pool.submit(self.cache.page, result.url, self._fetcher_for(result.url))
                for result in results
            ]
            for result, future in zip(results, futures, strict=True):
                try:
                    pages.append((result, future.result()))
                except PageRejectedError as exc:
                    self._skip(result.url, exc.reason)
                except FetchError as exc:
                    failures.append(exc)
                    self._skip(result.url, _failure_reason(exc))
        if not pages and failures:
            limited = [exc for exc in failures if isinstance(exc, RateLimitedError)]
            if limited:
                raise max(limited, key=lambda exc: exc.retry_after_s or 0.0)
            raise failures[0]
        return self._rank(query, pages, k)

    def _fetcher_for(self, url: str) -> Callable[[], FetchedPage]:
        return lambda: self.fetcher.fetch(url)

    def _run_search(self, query: str) -> list[SearchResult]:
        try:
            raw = self.search_fn(query, self.max_results)
        except ReportgenError:
            raise
        except Exception as exc:  # noqa: BLE001 - any engine failure is a fetch failure
            raise FetchError(f"web search failed ({type(exc).__name__}: {exc})") from exc
        results: list[SearchResult] = []
        seen: set[str] = set()
        for item in raw or []:
            if not isinstance(item, dict):
                continue
            href = item.get("href") or item.get("url")
            if not isinstance(href, str) or not href.strip():
                continue
            href = href.strip()
            if not href.lower().startswith(("http://", "https://")):
                self._skip(href, "not an http(s) URL")
                continue
            url = normalize_url(href)
            if url in seen:
                continue
            seen.add(url)
            title = item.get("title")
            body = item.get("body") or item.get("snippet")
            results.append(
                SearchResult(
                    url=url,
                    title=clean_text(title)[:200] if isinstance(title, str) else "",
                    snippet=clean_text(body) if isinstance(body, str) else "",
                    rank=len(results),
                )
            )
            if len(results) >= self.max_results:
                break
        logger.info("web search %r: %d result(s)", query, len(results))
        return results

    def _rank(
        self, query: str, pages: list[tuple[SearchResult, FetchedPage]], k: int
    ) -> list[Passage]:
        stop = stopwords("")
        words = set(tokenize(query))
        wanted = (words - stop) or words
        scored: list[tuple[float, int, int, Passage]] = []
        seen_urls: set[str] = set()
        for result, page in pages:
            if page.url in seen_urls:  # two results redirecting to one page
                continue
            seen_urls.add(page.url)
            title = page.title or result.title or page.url
            chunks = chunk_text(page.text, PASSAGE_CHARS, "")
            cover = [
                len(wanted & set(tokenize(f"{title} {chunk}"))) / max(1, len(wanted))
                for chunk in chunks
            ]
            order = sorted(range(len(chunks)), key=lambda i: (-cover[i], i))
            for position, index in enumerate(order):
                score = cover[index] / (1 + position) + 1e-3 / (1 + result.rank)
                passage = Passage(
                    source_id=web_source_id(page.url),
                    title=title,
                    url=page.url,
                    text=chunks[index],
                    corpus="web",
                    score=score,
                )
                scored.append((score, result.rank, index, passage))
        scored.sort(key=lambda item: (-item[0], item[1], item[2]))
        return [item[3] for item in scored[:k]]

    def _skip(self, url: str, reason: str) -> None:
        logger.info("web page skipped: %s: %s", url, reason)
        with self._lock:
            if (url, reason) not in self.skipped:
                self.skipped.append((url, reason))

    # ------------------------------------------------------------------ reading

    def get(self, source_id: str) -> Document | None:
        """Return a whole fetched page by source id (``None`` when this run did not fetch it)."""
        page = self.cache.get(source_id)
        if page is None:
            return None
        return Document(
            source_id=source_id, title=page.title or page.url, url=page.url,
            text=page.text, corpus="web",
        )  # fmt: skip

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the fetcher when this backend created it (idempotent)."""
        if self._owns_fetcher:
            self.fetcher.close()


    def __repr__(self) -> str:
        return f"WebSearch(name={self.name!r}, max_results={self.max_results})"


def _failure_reason(exc: FetchError) -> str:
    if isinstance(exc, RateLimitedError):
        after = f", retry after {exc.retry_after_s:g} s" if exc.retry_after_s is not None else ""
        return f"rate limited (HTTP {exc.http_status or 429}{after})"
    if exc.http_status is not None:
        return f"HTTP {exc.http_status}"
    cause = exc.__cause__
    if isinstance(cause, TimeoutError | httpx.TimeoutException):
        return "timed out"
    return f"failed ({type(cause).__name__})" if cause is not None else "failed"


class _Answered:
    """A backend that returns passages already found (to fuse them with MultiSearch)."""

    def __init__(self, name: str, passages: list[Passage]) -> None:
        self.name = name
        self.passages = passages

    def search(self, query: str, k: int = 10) -> list[Passage]:
        return self.passages[:k]


class AutoSearch:
    """The ``auto`` search mode: the web when it answers, the offline corpora when not.

    A web search that raises :class:`~reportgen.errors.SourceError` (timeout,
    rate limit, engine failure) or returns no passage is answered from the
    offline backends instead, and the fallback is recorded in
    :attr:`reroutes` (and logged) so the run can log it as an ACP reroute.
    With ``mix=True`` a web answer is fused with the offline answer by
    :class:`~reportgen.sources.index.MultiSearch` (reciprocal rank fusion).

    Args:
        web: The web backend (usually a :class:`WebSearch`).
        offline: The offline backends, in tie-break order (may be empty: a
            failing web search then raises, an empty one returns ``[]``).
        mix: Merge web and offline passages instead of using the web alone.
        name: Backend name.

    Attributes:
        reroutes: One line per fallback: the query and why.
    """

    def __init__(
        self,
        web: SearchBackend,
        offline: Sequence[SearchBackend],
        *,
        mix: bool = False,
        name: str = "auto",
    ) -> None:
        self.web = web
        self.offline = MultiSearch(offline, name="offline")
        self.mix = mix
        self.name = name
        self.reroutes: list[str] = []
        self._lock = threading.Lock()

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return up to ``k`` passages from the web, else from the offline corpora.

        Args:
            query: Free text.
            k: Maximum number of passages (``< 1`` gives ``[]``).

        Returns:
            Passages by decreasing score.

        Raises:
            reportgen.errors.SourceError: The web failed and there is no
                offline backend, or every offline backend failed too.
        """
        if k < 1:
            return []
        try:
            found = self.web.search(query, k)
        except SourceError as exc:
            return self._fall_back(query, k, f"web search failed ({exc.code}: {exc})", exc)
        if not found:
            return self._fall_back(query, k, "web search found nothing", None)
        if not self.mix or not self.offline.backends:
            return found
        fused = MultiSearch([_Answered(self.web.name, found), *self.offline.backends], self.name)
        return fused.search(query, k)

    def _fall_back(
        self, query: str, k: int, why: str, error: SourceError | None
    ) -> list[Passage]:
        if not self.offline.backends:
            with self._lock:
                self.reroutes.append(f"{query!r}: {why}; no offline corpus to fall back on")
            if error is not None:
                raise error
            return []
        note = f"{query!r}: {why}; searched the offline corpora instead"
        logger.warning("reroute: %s", note)
        with self._lock:
            self.reroutes.append(note)
        return self.offline.search(query, k)

    def space(self) -> Any:
        """The offline corpora's topic space (see :meth:`MultiSearch.space`), also used for web pages."""
        return self.offline.space()

    def close(self) -> None:
        """Close the web backend and every offline backend that has a ``close``."""
        close = getattr(self.web, "close", None)
        if callable(close):
            close()
        self.offline.close()


def open_search(
    mode: Literal["offline", "web", "auto"],
    offline: Sequence[SearchBackend],
    *,
    web: SearchBackend | None = None,
    mix: bool = False,
    settings: Any = None,
) -> SearchBackend:
    """Return the search backend of a search mode (``Settings.search``).

    Args:
        mode: ``"offline"``: the offline backends fused; ``"web"``: the web
            only; ``"auto"``: :class:`AutoSearch` over both.
        offline: The run's offline backends (see
            :func:`reportgen.sources.open_backends`).
        web: The web backend; default a new :class:`WebSearch` (ddgs, a
            fresh cache).
        mix: In ``auto`` mode, fuse web and offline passages.
        settings: The run's settings (``fetch_allow_private`` for a new
            :class:`WebSearch`); default none.

    Returns:
        A backend. Its ``close`` closes what it holds: the offline backends
        (``offline``, ``auto``) and the web backend (``web``, ``auto``).
    """
    if mode == "offline":
        return MultiSearch(offline, name=" + ".join(b.name for b in offline) or "offline")
    private = bool(getattr(settings, "fetch_allow_private", False))
    backend = web if web is not None else WebSearch(allow_private=private)
    if mode == "web":
        return backend
    return AutoSearch(backend, offline, mix=mix)
