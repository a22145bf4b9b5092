"""In a real browser (Debian's chromium through Playwright): request a report, watch it, read it, download it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from api_kit import TOPIC, SlowSearch, live, make_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not shutil.which("chromium"),
                                reason="Debian's chromium is not installed (make test installs it)")


def test_request_a_report_watch_it_and_download_the_pdf(tmp_path):
    app = make_app(tmp_path, search=SlowSearch(0.25), max_concurrency=2)  # slow enough to watch
    with live(app) as server, playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(accept_downloads=True)
            requested: list[str] = []

            def local_only(route):
                requested.append(route.request.url)
                if urlsplit(route.request.url).netloc == urlsplit(server.url).netloc:
                    route.continue_()
                else:
                    route.abort()

            context.route("**/*", local_only)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))

            page.goto(server.url + "/")
            assert page.url == server.url + "/browse"
            page.click("text=Request a report")
            page.fill("input[name=topic]", TOPIC)
            page.fill("input[name=sections]", "4")
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r"/browse/renewable-energy-[0-9a-f]{6}$"))
            report_id = page.url.rsplit("/", 1)[1]

            page.locator("#log li").first.wait_for(timeout=20_000)  # live ACP messages
            assert page.locator("#status").inner_text() in ("submitted", "working", "completed")
            pdf_link = page.locator("#pdf")
            pdf_link.wait_for(timeout=30_000)  # the page reloads when the report is done
            assert page.locator("#status").inner_text() == "completed"

            frame = page.frame_locator("#report")
            assert "Renewable" in frame.locator("h1").first.inner_text(timeout=10_000)
            with page.expect_download() as download_info:
                pdf_link.click()
            saved = tmp_path / "downloaded.pdf"
            download_info.value.save_as(saved)
            assert saved.read_bytes().startswith(b"%PDF")
            assert saved.read_bytes() == (tmp_path / "out" / report_id / "report.pdf").read_bytes()
            assert download_info.value.suggested_filename == f"{report_id}.pdf"

            page.goto(server.url + "/browse")
            row = page.locator(f'tr[data-report="{report_id}"]')
            assert "completed" in row.inner_text()
            assert not errors, errors
            assert all(urlsplit(url).netloc == urlsplit(server.url).netloc for url in requested)
        finally:
            browser.close()
