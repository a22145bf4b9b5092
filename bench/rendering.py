"""Rendering: our HTML → PDF (WeasyPrint) against headless Chromium on the same HTML.

A synthetic report of about 30 A4 pages with 10 charts (drawn by
:func:`reportgen.charts.draw_svg` from synthetic chart specs) is rendered to
HTML once with :func:`reportgen.render.render_html`. Then, in the same run and
alternately, each renderer turns that file into a PDF in a fresh process:

* ours, once per engine (``weasyprint``, ``chromium``):
  ``python -m bench.pdf_child HTML PDF ENGINE`` calling
  :func:`reportgen.render.pdf.render_pdf` twice — the first render is the
  fresh-process cost (interpreter start-up and imports included), the
  second the render call in a warm process;
* Chromium: Debian's ``chromium --headless --print-to-pdf`` (browser start-up included).

Wall times are medians over the repeats; peak memory is the child's own
``ru_maxrss`` (see :mod:`bench.process`).
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from statistics import median
from typing import Any

from bench.process import Measured, failure, python_child, run_measured
from bench.rows import Row, Target
from reportgen.charts import ChartPoint, ChartSpec, draw_svg
from reportgen.report import Figure, Limitation, Paragraph, Reference, Report, Section, Sentence

__all__ = ["CHROMIUM_FLAGS", "PDF_FRESH_TARGET", "PDF_TARGET", "big_report", "chromium_command", "run"]

#: The render call within 1.2× of Chromium printing the same HTML (issue 15).
PDF_TARGET = Target("<=", 1.2)
#: A fresh process (start-up, import, render) within 1.5× of Chromium's (issue 15).
PDF_FRESH_TARGET = Target("<=", 1.5)

#: Flags of the reference render: headless, no sandbox (root), nothing fetched
#: in the background, a throw-away profile.
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)

_CREATED = datetime(2024, 1, 15, 9, 30, tzinfo=timezone.utc)
_WORDS = (
    "energy grid power wind solar storage capacity demand supply market price policy turbine "
    "panel battery hydrogen transmission network region country share growth investment cost "
    "efficiency emission carbon climate generation utility consumer industry technology output "
    "forecast season winter summer peak load reserve interconnector auction subsidy tariff"
).split()


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(14, 26))]
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _chart(number: int, rng: random.Random, ref: Reference) -> ChartSpec:
    line = number % 2 == 0
    points = []
    for k in range(rng.randint(5, 8)):
        value = round(rng.uniform(5, 95), 1)
        year = 2010 + 2 * k
        raw = f"{value:g}%"
        quote = f"In {year} the share reached {raw} of electricity in region {k + 1}."
        points.append(ChartPoint(
            label=str(year) if line else f"Region {k + 1}", value=value, raw=raw, unit="%",
            year=year if line else None, source_id=ref.source_id, url=ref.url, title=ref.title,
            quote=quote,
        ))
    return ChartSpec(kind="line" if line else "bar", title=f"Renewable share, chart {number}",
                     x_label="Year" if line else "", y_label="Share of electricity (%)",
                     unit="%", points=points)


def big_report(*, sections: int = 12, paragraphs: int = 6, charts: int = 10,
               references: int = 40, seed: int = 7) -> Report:
    """A long synthetic report (about 30 A4 pages with the defaults).

    Built like ``tests/factories.py``'s sample report, only bigger: an
    introduction, ``sections`` body sections of ``paragraphs`` paragraphs
    (5–7 sentences each, every sentence citing one or two references), a
    conclusion, ``charts`` figures spread over the body sections, and
    ``references`` references.

    Returns:
        The report; deterministic for a given ``seed``.
    """
    rng = random.Random(seed)
    refs = [Reference(id=i, title=f"Source {i} on renewable electricity",
                      url=f"https://en.wikipedia.org/wiki/Renewable_source_{i}",
                      source_id=f"wiki:Renewable_source_{i}", corpus="wikipedia-offline",
                      accessed=_CREATED) for i in range(1, references + 1)]

    def paragraph() -> Paragraph:
        return Paragraph.from_sentences([
            Sentence(text=_sentence(rng), citations=sorted(rng.sample(range(1, references + 1), rng.randint(1, 2))))
            for _ in range(rng.randint(5, 7))
        ])

    body = [Section(id=f"s{n}", title=f"Section {n}: {rng.choice(_WORDS)} and {rng.choice(_WORDS)}",
                    paragraphs=[paragraph() for _ in range(paragraphs)]) for n in range(1, sections + 1)]
    figures = []
    for number in range(1, charts + 1):
        section = body[(number - 1) * sections // charts]
        ref = refs[number % references]
        spec = _chart(number, rng, ref)
        figures.append(Figure(id=f"fig-{number}", number=number, section_id=section.id,
                              caption=spec.title, kind=spec.kind, svg=draw_svg(spec),
                              citations=[ref.id], data=[p.model_dump() for p in spec.points]))
        section.figure_ids.append(f"fig-{number}")
    intro = Section(id="introduction", title="Introduction", role="introduction",
                    paragraphs=[paragraph() for _ in range(3)])
    outro = Section(id="conclusion", title="Conclusion", role="conclusion",
                    paragraphs=[paragraph() for _ in range(3)])
    return Report(
        id="bench-rendering", title="Renewable electricity: a long benchmark report",
        topic="renewable electricity", lang="en", mode="extractive",
        mode_note="Synthetic text for the rendering benchmark.", corpora=["wikipedia-offline"],
        created=_CREATED, sections=[intro, *body, outro], figures=figures, references=refs,
        limitations=[Limitation(reason="Synthetic benchmark report.")],
    )


def chromium_command(html: Path, pdf: Path, profile: Path) -> list[str] | None:
    """The Chromium reference command, or ``None`` when Chromium is not installed."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        return None
    return [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
            html.resolve().as_uri()]


def _pages(pdf: Path) -> int | None:
    from pypdf import PdfReader

    try:
        return len(PdfReader(pdf).pages)
    except Exception:  # noqa: BLE001 - a missing or broken PDF just has no page count
        return None


def _ours(html: Path, pdf: Path, engine: str) -> tuple[Measured, dict[str, Any]]:
    measured = run_measured(python_child("bench.pdf_child", str(html), str(pdf), engine),
                            cwd=str(Path(__file__).resolve().parent.parent))
    if measured.returncode != 0:
        raise RuntimeError(f"our render ({engine}) failed: {failure(measured)}")
    return measured, json.loads(measured.stdout.strip().splitlines()[-1])


def run(repeats: int = 2, report: Report | None = None) -> list[Row]:
    """The rendering rows, for each of our engines against Chromium's own ``--print-to-pdf``.

    Per engine: a fresh process (interpreter, import, first render: what one
    ``render_pdf`` costs from nothing; target :data:`PDF_FRESH_TARGET`), the
    render call in a warm process (the service's kept worker or browser;
    target :data:`PDF_TARGET`), and peak memory. Renderers alternate, so
    load on the shared machine falls on all of them alike.

    Args:
        repeats: Runs per renderer (alternating); medians are reported.
        report: The report to render; default :func:`big_report`.

    Returns:
        Three rows per engine.
    """
    from reportgen.render import render_html

    report = report or big_report()
    engines = ("weasyprint", "chromium")
    with tempfile.TemporaryDirectory(prefix="reportgen-bench-render-") as tmp:
        folder = Path(tmp)
        html = folder / "report.html"
        html.write_text(render_html(report), encoding="utf-8")
        ours: dict[str, list[Measured]] = {e: [] for e in engines}
        infos: dict[str, list[dict[str, Any]]] = {e: [] for e in engines}
        chrome: list[Measured] = []
        command = chromium_command(html, folder / "chromium.pdf", folder / "profile")
        for _ in range(repeats):
            for engine in engines:
                if engine == "chromium" and command is None:
                    continue
                measured, info = _ours(html, folder / f"ours-{engine}.pdf", engine)
                ours[engine].append(measured)
                infos[engine].append(info)
            if command is not None:
                shutil.rmtree(folder / "profile", ignore_errors=True)
                done = run_measured(command, timeout_s=180)
                if done.returncode != 0 or not (folder / "chromium.pdf").exists():
                    raise RuntimeError(f"chromium failed: {failure(done)}")
                chrome.append(done)
        pages = {e: _pages(folder / f"ours-{e}.pdf") for e in engines if ours[e]}
        chrome_pages = _pages(folder / "chromium.pdf") if command is not None else None
        html_kib = html.stat().st_size / 1024
    what = f"{len(report.figures)} charts, {html_kib:.0f} KiB of HTML"
    memory_note = "ru_maxrss of the process (interpreter and imports included; Chromium's largest process)"
    if command is None:
        missing = "chromium is not installed (make bench-deps installs it)"
        info = infos["weasyprint"]
        return [Row(group="rendering", name="PDF (weasyprint), fresh process",
                    value=median(m.wall_s for m in ours["weasyprint"]), unit="s", target=PDF_FRESH_TARGET,
                    status="unavailable", note=f"{missing}; {what}",
                    details={"import_s": [i["import_s"] for i in info]})]
    chrome_s = median(m.wall_s for m in chrome)
    chrome_mb = max(m.peak_rss_mb for m in chrome)
    rows: list[Row] = []
    for engine in engines:
        info = infos[engine]
        # The child renders twice; the fresh-process figure leaves the warm render out.
        fresh = [m.wall_s - i["warm_s"] for m, i in zip(ours[engine], info, strict=True)]
        fresh_s, warm_s = median(fresh), median(i["warm_s"] for i in info)
        import_s, first_s = median(i["import_s"] for i in info), median(i["first_s"] for i in info)
        mem = max(m.peak_rss_mb for m in ours[engine])
        details: dict[str, Any] = {
            "fresh_s": fresh, "warm_s": [i["warm_s"] for i in info], "first_s": [i["first_s"] for i in info],
            "import_s": [i["import_s"] for i in info], "peak_mib": [m.peak_rss_mb for m in ours[engine]],
            "pages": pages[engine], "chromium_pages": chrome_pages, "html_kib": html_kib,
            "chromium_wall_s": [m.wall_s for m in chrome],
        }
        how = ("WeasyPrint in this process" if engine == "weasyprint"
               else "our kept headless Chromium over the DevTools pipe: two prints (TOC page numbers) + metadata")
        rows += [
            Row(group="rendering", name=f"{pages[engine]}-page PDF, {engine}: fresh process", value=fresh_s,
                unit="s", reference=chrome_s, reference_name="chromium --print-to-pdf", ratio=fresh_s / chrome_s,
                ratio_name="ours / Chromium", target=PDF_FRESH_TARGET,
                note=(f"median of {repeats}; {what} (Chromium: {chrome_pages} pages); {how}; "
                      f"= start-up + {import_s:.2f} s import + {first_s:.2f} s first render"),
                details=details),
            Row(group="rendering", name=f"{pages[engine]}-page PDF, {engine}: render call, warm", value=warm_s,
                unit="s", reference=chrome_s, reference_name="chromium --print-to-pdf", ratio=warm_s / chrome_s,
                ratio_name="render_pdf / Chromium", target=PDF_TARGET,
                note=("a second render_pdf in the same process: what a report costs in the service, whose "
                      "render worker / browser is kept between reports")),
            Row(group="rendering", name=f"peak memory, {engine}", value=mem, unit="MiB", reference=chrome_mb,
                reference_name="Chromium's largest process", ratio=mem / chrome_mb,
                ratio_name="ours / Chromium's largest process", note=memory_note),
        ]
    return rows
