"""The browse pages, server-rendered: the list, the form, a report's page; text stays text."""

from __future__ import annotations

import re

from api_kit import TOPIC, client, make_app


async def test_the_list_shows_each_report_with_its_links(tmp_path, finished):
    app = make_app(tmp_path)
    async with client(app) as http:
        failed = (await http.post("/reports", json={"topic": "Quantum dragons"})).json()
        await http.get(f"/reports/{failed['id']}/events")
        assert (await http.get("/")).headers["location"] == "/browse"
        page = await http.get("/browse")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    html = page.text
    row = re.search(rf'<tr data-report="{finished}">(.*?)</tr>', html, re.S).group(1)
    assert "completed" in row and ">en<" in row and TOPIC in row
    assert f'href="/reports/{finished}/report.html"' in row and f'href="/reports/{finished}/report.pdf"' in row
    assert re.search(r"<td>\d+</td>", row)  # pages
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", row)  # date
    other = re.search(rf'<tr data-report="{failed["id"]}">(.*?)</tr>', html, re.S).group(1)
    assert "failed" in other and "report.pdf" not in other
    assert html.index(failed["id"]) < html.index(finished)  # newest first


async def test_a_report_page_frames_the_html_and_offers_the_pdf(tmp_path, finished):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        html = (await http.get(f"/browse/{finished}")).text
        script = await http.get("/browse/static/progress.js")
        missing = await http.get("/browse/no-such-report-1")
    assert re.search(rf'<iframe id="report" sandbox src="/reports/{finished}/report.html"', html)
    assert f'href="/reports/{finished}/report.pdf" download' in html
    assert script.headers["content-type"].startswith("text/javascript") and "EventSource" in script.text
    assert missing.status_code == 404 and "No such report" in missing.text


async def test_the_form_requests_a_report_and_shows_its_page(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        form = await http.get("/browse/new")
        assert '<form method="post" action="/browse/new"' in form.text and 'maxlength="500"' in form.text
        assert '<option value="brief">' in form.text and 'name="appendix" value="1" checked' in form.text
        posted = await http.post("/browse/new", data={"topic": TOPIC, "lang": "fr", "sections": "3",
                                                      "template": "brief"})
        assert posted.status_code == 303
        report_id = posted.headers["location"].removeprefix("/browse/")
        job = (await http.get(f"/reports/{report_id}")).json()
        assert job["options"] == {"topic": TOPIC, "lang": "fr", "sections": 3, "corpus": None, "wiki": True,
                                  "template": "brief", "appendix": False, "guidance": None, "review": False,
                                  "review_timeout_s": None}
        page = (await http.get(posted.headers["location"])).text
        assert 'id="progress"' in page and 'data-status="submitted"' in page and "progress.js" in page

        bad = await http.post("/browse/new", data={"topic": "x" * 600, "lang": "en"})
        assert bad.status_code == 422 and 'role="alert"' in bad.text and "500" in bad.text


async def test_topics_and_errors_are_shown_as_text(tmp_path):
    hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        job = (await http.post("/reports", json={"topic": hostile})).json()
        pages = [(await http.get(path)).text for path in ("/browse", f"/browse/{job['id']}")]
        echoed = (await http.post("/browse/new", data={"topic": hostile, "sections": "99"})).text
    for html in (*pages, echoed):
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
