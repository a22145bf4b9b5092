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


async def test_form_errors_are_in_plain_words(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        bad = await http.post("/browse/new", data={"topic": "x" * 600, "lang": "en", "sections": "40"})
        assert bad.status_code == 422
        assert "The topic is too long (at most 500 characters)." in bad.text
        assert "Sections must be a whole number from 1 to 12." in bad.text
        assert "string_too_long" not in bad.text and "body." not in bad.text


async def test_the_review_form_edits_the_plan_through_the_api(tmp_path):
    from api_kit import wait_until

    app = make_app(tmp_path)
    async with client(app) as http:
        posted = await http.post("/browse/new", data={"topic": TOPIC, "lang": "en", "sections": "3", "review": "1"})
        report_id = posted.headers["location"].removeprefix("/browse/")

        async def waiting():
            return (await http.get(f"/reports/{report_id}")).json()["status"] == "input_required"

        await wait_until(waiting)
        page = (await http.get(f"/browse/{report_id}")).text
        assert 'id="review"' in page and 's0_title' in page and 'id="cancel"' in page
        empty = await http.post(f"/browse/{report_id}/review", data={
            "action": "edit", "count": "3", "s0_id": "s1", "s0_title": " ", "s1_id": "s2", "s1_title": "B",
            "s2_id": "s3", "s2_title": "C"})
        assert empty.status_code == 422 and "The plan was not changed" in empty.text
        edited = await http.post(f"/browse/{report_id}/review", data={
            "action": "edit", "count": "3", "s0_id": "s1", "s0_title": "Wind turbines", "s0_order": "2",
            "s1_id": "s2", "s1_title": "x", "s1_remove": "1", "s2_id": "s3", "s2_title": "Geothermal power",
            "s2_order": "1", "new_title": "Hydropower", "new_questions": "How much?\nWhere?"})
        assert edited.status_code == 303
        plan = (await http.get(f"/reports/{report_id}/plan")).json()
        assert [s["title"] for s in plan["sections"]] == ["Geothermal power", "Wind turbines", "Hydropower"]
        assert plan["sections"][2]["questions"] == ["How much?", "Where?"]

        async def done():
            return (await http.get(f"/reports/{report_id}")).json()["status"] == "completed"

        await wait_until(done, timeout=60)
        page = (await http.get(f"/browse/{report_id}")).text
        for name in ("report.md", "report.docx", "report.pdf", "messages.jsonl"):
            assert f'data-file="{name}"' in page
        docx = await http.get(f"/reports/{report_id}/report.docx")
        assert docx.status_code == 200 and docx.content.startswith(b"PK")
        assert "attachment" in docx.headers["content-disposition"]
        assert (await http.get(f"/reports/{report_id}/report.md")).text.startswith("#")
        assert (await http.get(f"/reports/{report_id}/secret.txt")).status_code == 404
        deleted = await http.post(f"/browse/{report_id}/delete")
        assert deleted.status_code == 303 and (await http.get(f"/reports/{report_id}")).status_code == 404
