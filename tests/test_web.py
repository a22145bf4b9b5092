"""The web backend on the 127.0.0.1 fixture site: fetch limits, SSRF guard, cache, auto."""

from __future__ import annotations

import socket
import threading
import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from reportgen.config import get_settings
from reportgen.errors import (
    BlockedURLError,
    FetchError,
    PageRejectedError,
    RateLimitedError,
    SourceError,
)
from reportgen.sources import (
    AutoSearch,
    MultiSearch,
    PageFetcher,
    SearchBackend,
    WebCache,
    WebSearch,
    extract_main_text,
    is_public_address,
    normalize_url,
    open_search,
    parse_retry_after,
    web_source_id,
)

from fakes import FakeSearch
from fakeweb import CONTENT_PAGES, PDF_TEXT, stub_search


@pytest.fixture(autouse=True)
def no_internet(monkeypatch):
    """Belt and braces: name resolution works for loopback names only."""
    real = socket.getaddrinfo

    def guarded(host, *args, **kwargs):
        if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0"):
            raise OSError(f"a test tried to resolve {host!r}")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)


@pytest.fixture
def fetcher():
    with PageFetcher(allow_private=True, timeout_s=2.0, max_bytes=100_000) as f:
        yield f


def web(site, paths=CONTENT_PAGES, fetcher=None, **kwargs):
    return WebSearch(search_fn=stub_search(site, paths), fetcher=fetcher, allow_private=True,
                     **kwargs)  # fmt: skip


# --------------------------------------------------------------------------- WebSearch


def test_search_returns_passages_with_final_urls_and_text(fake_site, fetcher):
    backend = web(fake_site, ["/redirect/2", "/wind.html"], fetcher)
    assert isinstance(backend, SearchBackend)
    passages = backend.search("solar capacity by year", k=10)
    solar = fake_site.url("/solar.html")
    assert passages, "the fixture pages answer"
    assert {p.url for p in passages} == {solar, fake_site.url("/wind.html")}
    best = passages[0]
    assert best.url == solar  # the final URL, not the redirect
    assert best.source_id == web_source_id(solar)
    assert best.source_id.startswith("web:") and len(best.source_id) == 4 + 16
    assert best.title == "Solar power capacity by year"
    assert best.corpus == "web"
    assert "1,419" in best.text and "2015" in best.text
    assert [p.score for p in passages] == sorted((p.score for p in passages), reverse=True)
    whole = backend.get(best.source_id)
    assert whole is not None and whole.url == solar and "217 GW" in whole.text
    assert backend.get("web:0000000000000000") is None
    assert backend.skipped == []


def test_unusable_pages_are_skipped_with_reasons(fake_site, fetcher):
    paths = ["/missing.html", "/data.bin", "/huge.html", "/huge-declared.html", "/empty.html",
             "/solar.html"]  # fmt: skip
    backend = web(fake_site, paths, fetcher)
    stub = backend.search_fn
    stub.results.append({"title": "local", "href": "file:///etc/passwd", "body": ""})
    passages = backend.search("solar", k=5)
    assert {p.url for p in passages} == {fake_site.url("/solar.html")}
    reasons = dict(backend.skipped)
    assert reasons[fake_site.url("/missing.html")] == "HTTP 404"
    assert reasons[fake_site.url("/data.bin")] == "not a readable type (application/octet-stream)"
    assert reasons[fake_site.url("/huge.html")].startswith("larger than 100,000 bytes")
    assert reasons[fake_site.url("/huge-declared.html")].startswith("larger than 100,000 bytes")
    assert reasons[fake_site.url("/empty.html")] == "no text"
    assert reasons["file:///etc/passwd"] == "not an http(s) URL"


def test_nothing_usable_gives_no_passages(fake_site, fetcher):
    backend = web(fake_site, ["/missing.html", "/data.bin"], fetcher)
    assert backend.search("anything", k=5) == []
    assert len(backend.skipped) == 2


def test_text_and_small_pdf_pages_are_read(fake_site, fetcher):
    backend = web(fake_site, ["/notes.txt", "/doc.pdf"], fetcher)
    passages = backend.search("geothermal capacity", k=5)
    by_url = {p.url: p for p in passages}
    assert "Iceland" in by_url[fake_site.url("/notes.txt")].text
    assert by_url[fake_site.url("/doc.pdf")].text == PDF_TEXT
    assert by_url[fake_site.url("/notes.txt")].title == "Notes"  # the result's title


def test_cache_prevents_repeated_searches_and_fetches(fake_site, fetcher):
    cache = WebCache()
    backend = web(fake_site, ["/solar.html", "/wind.html"], fetcher, cache=cache)
    first = backend.search("solar capacity", k=5)
    again = backend.search("  Solar   CAPACITY ", k=5)  # same query, normalised
    assert again == first
    assert backend.search_fn.calls == [("solar capacity", backend.max_results)]
    assert fake_site.hits["/solar.html"] == 1 and fake_site.hits["/wind.html"] == 1
    # Another query (another section) finding the same pages: searched, not refetched.
    other = web(fake_site, ["/wind.html", "/solar.html"], fetcher, cache=cache)
    assert other.search("wind capacity", k=5)
    assert fake_site.hits["/solar.html"] == 1 and fake_site.hits["/wind.html"] == 1
    assert cache.searches == 2 and cache.fetches == 2


def test_cache_is_shared_safely_by_threads(fake_site, fetcher):
    backend = web(fake_site, ["/solar.html", "/wind.html", "/hydro.html"], fetcher)
    results: list[list] = []
    barrier = threading.Barrier(8)

    def run() -> None:
        barrier.wait()
        results.append(backend.search("renewable capacity", k=4))

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(results) == 8 and all(r == results[0] for r in results)
    assert len(backend.search_fn.calls) == 1
    assert fake_site.hits["/solar.html"] == 1
    assert fake_site.hits["/hydro.html"] == 1


def test_rejected_pages_are_not_fetched_twice_but_failures_are_retried(fake_site, fetcher):
    backend = web(fake_site, ["/missing.html", "/down.html", "/solar.html"], fetcher)
    backend.search("solar", k=3)
    backend.search("solar", k=3)
    assert fake_site.hits["/missing.html"] == 1  # a 404 is remembered
    assert fake_site.hits["/down.html"] == 2  # a 503 may pass: asked again
    assert dict(backend.skipped)[fake_site.url("/down.html")] == "HTTP 503"


def test_slow_page_is_a_fetch_timeout(fake_site):
    started = time.monotonic()
    with PageFetcher(allow_private=True, timeout_s=0.3) as fetcher:
        with pytest.raises(FetchError) as info:
            fetcher.fetch(fake_site.url("/slow.html"))
        assert not isinstance(info.value, RateLimitedError)
        assert info.value.code == "fetch" and info.value.http_status is None
        # A page that keeps sending bytes is cut by the total deadline too.
        with pytest.raises(FetchError):
            fetcher.fetch(fake_site.url("/trickle.html"))
        # Through the backend: the only result timed out, so the search fails (604).
        backend = web(fake_site, ["/slow.html"], fetcher)
        with pytest.raises(FetchError):
            backend.search("anything", k=3)
    assert time.monotonic() - started < 2.5


def test_slow_page_is_skipped_when_others_answer(fake_site):
    with PageFetcher(allow_private=True, timeout_s=0.3) as fetcher:
        backend = web(fake_site, ["/slow.html", "/wind.html"], fetcher)
        passages = backend.search("wind", k=3)
    assert {p.url for p in passages} == {fake_site.url("/wind.html")}
    assert dict(backend.skipped)[fake_site.url("/slow.html")] == "timed out"


def test_rate_limit_carries_retry_after(fake_site, fetcher):
    with pytest.raises(RateLimitedError) as info:
        fetcher.fetch(fake_site.url("/busy.html"))
    assert info.value.http_status == 429 and info.value.retry_after_s == 7.0
    assert info.value.code == "rate_limited" and isinstance(info.value, FetchError)
    with pytest.raises(RateLimitedError) as info:
        fetcher.fetch(fake_site.url("/busy-date.html"))
    assert 100 < info.value.retry_after_s <= 120
    with pytest.raises(FetchError) as info:
        fetcher.fetch(fake_site.url("/down.html"))
    assert type(info.value) is FetchError
    assert info.value.http_status == 503 and info.value.retry_after_s == 3.0


def test_search_raises_rate_limit_when_no_page_answers(fake_site, fetcher):
    backend = web(fake_site, ["/down.html", "/busy.html", "/busy-date.html"], fetcher)
    with pytest.raises(RateLimitedError) as info:
        backend.search("solar", k=3)
    assert info.value.retry_after_s > 100  # the longest wait asked for
    ok = web(fake_site, ["/busy.html", "/solar.html"], fetcher)
    assert ok.search("solar", k=3)
    assert dict(ok.skipped)[fake_site.url("/busy.html")] == (
        "rate limited (HTTP 429, retry after 7 s)"
    )


def test_redirects_are_bounded(fake_site):
    with PageFetcher(allow_private=True, timeout_s=2, max_redirects=5) as fetcher:
        page = fetcher.fetch(fake_site.url("/redirect/5"))
        assert page.url == fake_site.url("/solar.html")
        assert page.requested_url == fake_site.url("/redirect/5")
        assert len(page.redirects) == 5
        with pytest.raises(PageRejectedError, match="more than 5 redirects"):
            fetcher.fetch(fake_site.url("/redirect/6"))
        with pytest.raises(PageRejectedError, match="more than 5 redirects"):
            fetcher.fetch(fake_site.url("/loop.html"))
    assert fake_site.hits["/loop.html"] == 6
    with PageFetcher(allow_private=True, max_redirects=0) as fetcher:
        with pytest.raises(PageRejectedError):
            fetcher.fetch(fake_site.url("/redirect/1"))


def test_fetch_sends_a_clear_user_agent(fake_site, fetcher):
    fetcher.fetch(fake_site.url("/wind.html"))
    (path, headers), = fake_site.requests
    assert headers["User-Agent"].startswith("reportgen/")


def test_settings_give_the_fetch_limits(monkeypatch):
    monkeypatch.setenv("REPORTGEN_FETCH_TIMEOUT_S", "2.5")
    monkeypatch.setenv("REPORTGEN_FETCH_MAX_BYTES", "4096")
    monkeypatch.setenv("REPORTGEN_FETCH_MAX_REDIRECTS", "2")
    monkeypatch.setenv("REPORTGEN_SEARCH", "auto")
    get_settings.cache_clear()
    assert get_settings().search == "auto"
    with PageFetcher() as fetcher:
        assert (fetcher.timeout_s, fetcher.max_bytes, fetcher.max_redirects) == (2.5, 4096, 2)
        assert not fetcher.allow_private
    with PageFetcher(timeout_s=1, max_bytes=2048, max_redirects=0) as fetcher:  # callers win
        assert (fetcher.timeout_s, fetcher.max_bytes, fetcher.max_redirects) == (1, 2048, 0)


def test_settings_defaults():
    settings = get_settings()
    assert settings.search == "offline"
    assert settings.fetch_timeout_s == 15.0
    assert settings.fetch_max_bytes == 5_000_000
    assert settings.fetch_max_redirects == 5


# --------------------------------------------------------------------------- SSRF guard


def test_private_addresses_are_refused_by_default(fake_site):
    port = fake_site.base_url.rsplit(":", 1)[1]
    with PageFetcher(timeout_s=2) as fetcher:
        for url in (
            fake_site.url("/solar.html"),
            f"http://localhost:{port}/solar.html",
            f"http://[::1]:{port}/solar.html",
            f"http://0.0.0.0:{port}/solar.html",
        ):
            with pytest.raises(BlockedURLError) as info:
                fetcher.fetch(url)
            assert info.value.code == "blocked_url"
        for url in ("file:///etc/passwd", "ftp://example.org/x", "javascript:alert(1)",
                    "http://user:pw@example.org/", "/relative/path"):  # fmt: skip
            with pytest.raises(BlockedURLError):
                fetcher.fetch(url)
    assert fake_site.hits == {}
    # The search backend skips them, with the reason.
    backend = WebSearch(search_fn=stub_search(fake_site, ["/solar.html"]))
    with backend:
        assert backend.search("solar", k=3) == []
    ((url, reason),) = backend.skipped
    assert reason == "127.0.0.1 resolves to a non-public address (127.0.0.1)"
    assert fake_site.hits == {}


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("127.0.0.1", False), ("127.8.9.10", False), ("10.1.2.3", False), ("172.16.0.1", False),
        ("172.31.255.255", False), ("192.168.1.1", False), ("169.254.169.254", False),
        ("0.0.0.0", False), ("100.64.0.1", False), ("224.0.0.1", False), ("::1", False),
        ("fc00::1", False), ("fd12:3456::1", False), ("fe80::1%eth0", False),
        ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False), ("2002:7f00:1::", False),
        ("not an ip", False), ("93.184.216.34", True), ("172.32.0.1", True),
        ("2606:4700:4700::1111", True), ("::ffff:8.8.8.8", True),
    ],
)  # fmt: skip
def test_is_public_address(address, public):
    assert is_public_address(address) is public


def _mock_internet(seen: list[httpx.Request]) -> httpx.MockTransport:
    page = b"<html><head><title>Example</title></head><body><p>" + b"Public page. " * 30 + b"</p>"

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/go-internal":
            return httpx.Response(302, headers={"Location": "http://internal.test/secret"})
        if request.url.path == "/go-metadata":
            return httpx.Response(302, headers={"Location": "http://169.254.169.254/latest/"})
        return httpx.Response(200, content=page, headers={"Content-Type": "text/html"})

    return httpx.MockTransport(handler)


def _resolver(host: str, port: int) -> list[str]:
    known = {"example.test": ["93.184.216.34"], "internal.test": ["10.0.0.5"],
             "mixed.test": ["93.184.216.34", "127.0.0.1"]}  # fmt: skip
    if host not in known:
        raise OSError("name does not resolve")
    return known[host]


def test_connection_is_pinned_to_the_checked_address():
    seen: list[httpx.Request] = []
    with PageFetcher(resolver=_resolver, transport=_mock_internet(seen)) as fetcher:
        page = fetcher.fetch("https://example.test/page#part")
    assert page.url == "https://example.test/page" and page.title == "Example"
    (request,) = seen
    assert request.url.host == "93.184.216.34"  # connects to the address that was checked
    assert request.headers["Host"] == "example.test"
    assert request.extensions["sni_hostname"] == "example.test"  # TLS checks the name


def test_dns_answers_and_redirects_to_private_addresses_are_refused():
    seen: list[httpx.Request] = []
    with PageFetcher(resolver=_resolver, transport=_mock_internet(seen)) as fetcher:
        with pytest.raises(BlockedURLError, match="10.0.0.5"):
            fetcher.fetch("http://internal.test/")
        with pytest.raises(BlockedURLError, match="127.0.0.1"):
            fetcher.fetch("http://mixed.test/")
        with pytest.raises(BlockedURLError):
            fetcher.fetch("http://example.test/go-internal")
        with pytest.raises(BlockedURLError):
            fetcher.fetch("http://example.test/go-metadata")
        with pytest.raises(FetchError, match="cannot resolve"):
            fetcher.fetch("http://nowhere.test/")
    assert [r.url.path for r in seen] == ["/go-internal", "/go-metadata"]


# --------------------------------------------------------------------------- extraction


def test_hostile_page_gives_text_only(fake_site, fetcher):
    backend = web(fake_site, ["/hostile.html"], fetcher)
    passages = backend.search("tidal power", k=5)
    assert passages and passages[0].title == "Tidal power basics"
    text = " ".join(p.text for p in passages)
    assert "240 MW" in text and "Tidal stream generators" in text
    for bad in ("<", ">", "alert", "document.cookie", "onmouseover", "javascript:", "fetch(",
                "127.0.0.1:9"):  # fmt: skip
        assert bad not in text


def test_extract_main_text_drops_code_and_falls_back():
    html = (
        "<html><head><title>T &amp; more</title><style>p{color:red}</style></head><body>"
        "<noscript>Enable JS noscript text</noscript><template>tpl text</template>"
        "<textarea>typed text</textarea><p>Short body 42 GW.</p>"
        "<script>var secret = 1;</script></body></html>"
    )
    title, text = extract_main_text(html)
    assert title == "T & more"
    assert "42 GW" in text
    for bad in ("noscript text", "tpl text", "typed text", "secret", "color:red"):
        assert bad not in text
    assert extract_main_text("") == ("", "")
    assert extract_main_text("just words, no markup")[1] == "just words, no markup"


def test_charset_from_header_and_meta(fake_site):
    seen: list[httpx.Request] = []
    body = "<html><body><p>Énergie éolienne: 73 GW en mer, très bien.</p></body></html>"

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/latin":
            return httpx.Response(200, content=body.encode("latin-1"),
                                  headers={"Content-Type": "text/html; charset=ISO-8859-1"})
        meta = body.replace("<html>", '<html><head><meta charset="windows-1252"></head>')
        return httpx.Response(200, content=meta.encode("cp1252"),
                              headers={"Content-Type": "text/html"})  # fmt: skip

    with PageFetcher(allow_private=True, transport=httpx.MockTransport(handler)) as fetcher:
        assert "Énergie éolienne" in fetcher.fetch("http://site.test/latin").text
        assert "très bien" in fetcher.fetch("http://site.test/meta").text


# --------------------------------------------------------------------------- auto mode


def test_auto_uses_the_web_when_it_answers(fake_site, fetcher):
    offline = FakeSearch()
    auto = AutoSearch(web(fake_site, ["/wind.html"], fetcher), [offline])
    passages = auto.search("wind power", k=3)
    assert passages and all(p.corpus == "web" for p in passages)
    assert auto.reroutes == [] and offline.calls == []


@pytest.mark.parametrize("failure", ["raises", "empty", "unusable"])
def test_auto_falls_back_to_offline_and_records_the_reroute(fake_site, fetcher, failure):
    if failure == "raises":
        stub = stub_search(fake_site, error=RuntimeError("engine down"))
    elif failure == "empty":
        stub = stub_search(fake_site, [])
    else:
        stub = stub_search(fake_site, ["/missing.html"])
    offline = FakeSearch()
    auto = AutoSearch(WebSearch(search_fn=stub, fetcher=fetcher), [offline])
    passages = auto.search("wind power", k=3)
    assert passages and passages[0].corpus == "fake corpus"
    assert offline.calls == ["wind power"]
    (reroute,) = auto.reroutes
    assert reroute.startswith("'wind power': web search ")
    assert reroute.endswith("searched the offline corpora instead")
    if failure == "raises":
        assert "failed (fetch:" in reroute and "engine down" in reroute
    else:
        assert "found nothing" in reroute


def test_auto_fallback_on_rate_limit(fake_site, fetcher):
    auto = AutoSearch(web(fake_site, ["/busy.html"], fetcher), [FakeSearch()])
    assert auto.search("hydropower", k=2)
    assert "rate_limited" in auto.reroutes[0]


def test_auto_without_offline_backends(fake_site, fetcher):
    failing = AutoSearch(WebSearch(search_fn=stub_search(fake_site, error=RuntimeError("x")),
                                   fetcher=fetcher), [])  # fmt: skip
    with pytest.raises(FetchError):
        failing.search("wind", k=2)
    empty = AutoSearch(WebSearch(search_fn=stub_search(fake_site, []), fetcher=fetcher), [])
    assert empty.search("wind", k=2) == []
    assert len(failing.reroutes) == 1 and len(empty.reroutes) == 1


def test_auto_mix_fuses_web_and_offline(fake_site, fetcher):
    auto = AutoSearch(web(fake_site, ["/wind.html", "/solar.html"], fetcher), [FakeSearch()],
                      mix=True)  # fmt: skip
    passages = auto.search("wind power", k=6)
    assert {p.corpus for p in passages} == {"web", "fake corpus"}
    assert auto.reroutes == []


def test_web_failure_inside_multisearch_is_not_fatal(fake_site, fetcher):
    failing = WebSearch(search_fn=stub_search(fake_site, error=RuntimeError("x")), fetcher=fetcher)
    multi = MultiSearch([failing, FakeSearch()])
    assert multi.search("wind power", k=2)
    assert multi.failures and multi.failures[0][0] == "web"


def test_open_search_modes(fake_site, fetcher):
    offline = [FakeSearch()]
    webby = web(fake_site, ["/wind.html"], fetcher)
    assert isinstance(open_search("offline", offline), MultiSearch)
    assert open_search("web", offline, web=webby) is webby
    auto = open_search("auto", offline, web=webby, mix=True)
    assert isinstance(auto, AutoSearch) and auto.mix and auto.web is webby


# --------------------------------------------------------------------------- helpers


def test_parse_retry_after():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    later = (now + timedelta(seconds=90)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    earlier = (now - timedelta(seconds=90)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after(later, now=now) == 90.0
    assert parse_retry_after(earlier, now=now) == 0.0
    assert parse_retry_after("99999999") == 86_400.0
    for bad in (None, "", "soon", "nan", "inf"):
        assert parse_retry_after(bad) in (None, 86_400.0)
    assert parse_retry_after("soon") is None and parse_retry_after("nan") is None


def test_normalize_url():
    assert normalize_url("HTTP://Example.ORG:80/a?b=1#frag") == "http://example.org/a?b=1"
    assert normalize_url("https://example.org:443/") == "https://example.org/"
    assert WebCache.query_key("  Wind\tPOWER ") == "wind power"


def test_ddgs_errors_map_to_fetch_errors():
    from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

    from reportgen.sources import ddgs_search

    class Client:  # a fake ddgs client: never the network
        def __init__(self, error=None):
            self.error = error
            self.calls = []

        def text(self, query, **kwargs):
            self.calls.append((query, kwargs))
            if self.error is not None:
                raise self.error
            return [{"href": "https://example.org/", "title": "t", "body": "b"}]

    for error, expected in ((RatelimitException("429"), RateLimitedError),
                            (TimeoutException("timed out"), FetchError),
                            (DDGSException("No results found."), FetchError)):  # fmt: skip
        with pytest.raises(expected) as info:
            ddgs_search("wind", 5, client=Client(error))
        assert isinstance(info.value, SourceError)
    client = Client()
    assert ddgs_search("wind", 3, client=client)[0]["href"] == "https://example.org/"
    assert client.calls == [("wind", {"max_results": 3})]
