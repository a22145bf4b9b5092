"""In a real browser (Debian's chromium through Playwright): request a report with plan review, edit the plan in
the form, watch the live blueprint change colour, read the report, download the PDF and the other exports.

Screenshots of each page land in ``outputs/browser/`` (git-ignored), the test run's artifacts.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from api_kit import TOPIC, SlowSearch, live, make_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
SHOTS = Path("outputs") / "browser"

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not shutil.which("chromium"),
                                reason="Debian's chromium is not installed (make test installs it)")


def test_review_a_plan_watch_it_run_and_download_every_file(tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    app = make_app(tmp_path, search=SlowSearch(0.3), max_concurrency=2)  # slow enough to watch
    with live(app) as server, playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
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
            page.fill("input[name=sections]", "3")
            page.check("input[name=review]")
            page.screenshot(path=str(SHOTS / "01-new.png"), full_page=True)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r"/browse/renewable-energy-[0-9a-f]{6}$"))
            report_id = page.url.rsplit("/", 1)[1]

            # The plan review form (the page reloads once the plan waits for review).
            form = page.locator("form#review")
            form.wait_for(timeout=30_000)
            assert page.locator("#status").inner_text() == "input_required"
            assert "review the plan" in page.locator("#activity").inner_text()
            sections = form.locator("li.section")
            assert sections.count() == 3
            dropped = sections.nth(1).locator("input[name$=_title]").input_value()
            page.locator("#dag g.task").first.wait_for(timeout=10_000)  # the proposed blueprint, all waiting
            assert set(page.locator("#dag g.task").evaluate_all("gs => gs.map(g => g.dataset.status)")) == {"pending"}
            page.screenshot(path=str(SHOTS / "02-review.png"), full_page=True)
            sections.nth(0).locator("input[name$=_title]").fill("Wind turbines")
            sections.nth(1).locator("input[name$=_remove]").check()
            page.click("#run-edited")

            # The live blueprint: watch one task go from waiting to running to done.
            page.wait_for_url(f"{server.url}/browse/{report_id}")
            seen: dict[str, set[str]] = {}
            shot_running = False
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not page.locator("#pdf").count():
                try:
                    states = page.locator("#dag g.task").evaluate_all(
                        "gs => gs.map(g => [g.dataset.task, g.dataset.status])")
                except playwright.Error:  # the page reloads when the report is done
                    continue
                for task, state in states:
                    seen.setdefault(task, set()).add(state)
                if not shot_running and any("running" in states for states in seen.values()):
                    page.screenshot(path=str(SHOTS / "03-running.png"), full_page=True)
                    activity = page.locator("#activity").inner_text().strip()  # plain words: "Find passages on..."
                    shot_running = True
                time.sleep(0.1)
            assert shot_running, seen
            assert activity and "·" not in activity, activity
            assert any(len(states) >= 2 for states in seen.values()), seen  # colours changed live
            assert not any(task.endswith("-2") for task in seen), seen  # the removed section never ran

            page.locator("#pdf").wait_for(timeout=30_000)
            assert page.locator("#status").inner_text() == "completed"
            frame = page.frame_locator("#report")
            assert "Renewable" in frame.locator("h1").first.inner_text(timeout=10_000)
            headings = frame.locator("h2").all_inner_texts()
            assert any("Wind turbines" in h for h in headings), headings
            assert not any(dropped in h for h in headings), headings
            final = page.locator("#dag g.task").evaluate_all("gs => gs.map(g => g.dataset.status)")
            assert {"done", "failed", "skipped"} >= set(final), final
            page.screenshot(path=str(SHOTS / "04-completed.png"), full_page=True)

            with page.expect_download() as download_info:
                page.locator("#pdf").click()
            saved = tmp_path / "downloaded.pdf"
            download_info.value.save_as(saved)
            assert saved.read_bytes().startswith(b"%PDF")
            assert saved.read_bytes() == (tmp_path / "out" / report_id / "report.pdf").read_bytes()
            assert download_info.value.suggested_filename == f"{report_id}.pdf"
            files = page.locator(".downloads a").evaluate_all("as => as.map(a => a.dataset.file)")
            assert {"report.md", "report.docx", "report.json", "report.pdf"} <= set(files)
            with page.expect_download() as download_info:
                page.locator('.downloads a[data-file="report.docx"]').click()
            docx = tmp_path / "downloaded.docx"
            download_info.value.save_as(docx)
            assert docx.read_bytes().startswith(b"PK")

            page.goto(server.url + "/browse")
            row = page.locator(f'tr[data-report="{report_id}"]')
            assert "completed" in row.inner_text()
            page.screenshot(path=str(SHOTS / "05-list.png"), full_page=True)
            page.goto(f"{server.url}/browse/{report_id}")
            # The page embeds the report (figures, fonts): the browser keeps six connections per host, so the
            # form's post can queue behind those loads. Let them finish first (the post had waited 60 s three
            # times in one day's full suites, never alone).
            page.wait_for_load_state("networkidle", timeout=60_000)
            # The form posts, the server answers 303 to the list: wait for the post's answer first, so a
            # refusal says why (its status and page) instead of a bare navigation timeout.
            with page.expect_response(lambda r: r.url.endswith(f"/browse/{report_id}/delete"),
                                      timeout=60_000) as answer:
                page.click("#delete")
            assert answer.value.status == 303, (answer.value.status, answer.value.text()[:2000])
            page.wait_for_url(server.url + "/browse", wait_until="domcontentloaded", timeout=60_000)
            assert page.locator(f'tr[data-report="{report_id}"]').count() == 0
            assert not errors, errors
            assert all(urlsplit(url).netloc == urlsplit(server.url).netloc for url in requested)
        finally:
            browser.close()
