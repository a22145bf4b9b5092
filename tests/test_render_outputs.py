"""write_report_files: every output from one model, the appendix switch, errors that
name the file, atomic replacement, and no byte of a local file in any output."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from reportgen.errors import ForbiddenURLError, RenderError
from reportgen.render import write_report_files
from reportgen.render.exporters import CORE_FILES, DOCX, MARKDOWN
from reportgen.report import Paragraph, Sentence, Table

from factories import sample_blueprint, sample_report

REPORT_FILES = (*CORE_FILES, MARKDOWN.filename, DOCX.filename)

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_every_output_is_written(tmp_path: Path) -> None:
    sample_blueprint().save(tmp_path / "blueprint.json")  # read from the folder by default
    timings = write_report_files(sample_report(), tmp_path)
    assert set(timings) == {"json", "appendix", "html", "pdf", "md", "docx"}
    assert _files(tmp_path) == sorted([
        *REPORT_FILES, "blueprint.json", "figures/fig-1.svg",
        "figures/appendix-blueprint.svg", "figures/appendix-timeline.svg",
    ])
    for name in REPORT_FILES:
        assert (tmp_path / name).stat().st_size > 0
    assert not list(tmp_path.rglob(".*.tmp"))  # no temporary file left behind
    assert json.loads((tmp_path / "report.json").read_text())["id"] == "r-20240115-sample"
    html = (tmp_path / "report.html").read_text()
    assert 'id="appendix"' in html
    assert "## Appendix: how this report was made" in (tmp_path / "report.md").read_text()


def test_appendix_can_be_switched_off(tmp_path: Path) -> None:
    write_report_files(sample_report(), tmp_path, blueprint=sample_blueprint(), appendix=False)
    assert 'id="appendix"' not in (tmp_path / "report.html").read_text()
    assert "Appendix" not in (tmp_path / "report.md").read_text()
    assert b"Appendix" not in zipfile.ZipFile(tmp_path / "report.docx").read("word/document.xml")
    assert _files(tmp_path / "figures") == ["fig-1.svg"]


def test_no_blueprint_no_appendix(tmp_path: Path) -> None:
    write_report_files(sample_report(), tmp_path)
    assert 'id="appendix"' not in (tmp_path / "report.html").read_text()


def test_brief_theme(tmp_path: Path) -> None:
    write_report_files(sample_report(), tmp_path, template="brief")
    assert '<body class="theme-brief">' in (tmp_path / "report.html").read_text()


def test_unknown_template_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(RenderError, match="no template named 'glossy'; installed: brief, report"):
        write_report_files(sample_report(), out, template="glossy")
    assert not out.exists()


def test_template_error_names_the_file_and_the_line(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "report.html.j2").write_text("ok\n{{ report.__class__ }}\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(RenderError) as caught:
        write_report_files(sample_report(), out, template_dir=templates)
    message = str(caught.value)
    assert message.startswith(f"cannot write {out / 'report.html'}: ")
    assert f"{templates / 'report.html.j2'}, line 2" in message
    assert not (out / "report.html").exists()


def test_template_dir_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reportgen.config import get_settings

    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "custom.css").write_text("h2 { color: #010203; }", encoding="utf-8")
    monkeypatch.setenv("REPORTGEN_TEMPLATE_DIR", str(templates))
    get_settings.cache_clear()
    write_report_files(sample_report(), tmp_path / "out")
    assert "#010203" in (tmp_path / "out" / "report.html").read_text()


def test_render_time_limit_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reportgen.config import get_settings

    monkeypatch.setenv("REPORTGEN_RENDER_TIMEOUT_S", "0.5")
    get_settings.cache_clear()
    report = sample_report()
    long_text = " ".join(["Renewable sources supply electricity."] * 40)
    report.sections[1].paragraphs = [
        Paragraph.from_sentences([Sentence(text=long_text, citations=[1])])] * 2500
    with pytest.raises(RenderError, match=r"report\.(html|pdf): .*took longer than 0\.5 s"):
        write_report_files(report, tmp_path)
    assert not (tmp_path / "report.pdf").exists()


def test_corrupt_blueprint_is_named(tmp_path: Path) -> None:
    (tmp_path / "blueprint.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RenderError, match=re.escape(str(tmp_path / "blueprint.json"))):
        write_report_files(sample_report(), tmp_path)


def test_export_failure_names_the_file_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "report.docx").write_bytes(b"previous good document")

    def broken(*args, **kwargs):
        raise ValueError("All strings must be XML compatible")

    monkeypatch.setattr("reportgen.render.docx.render_docx", broken)  # the Word exporter's renderer
    with pytest.raises(RenderError, match=re.escape(
            f"cannot write {tmp_path / 'report.docx'}: ValueError: All strings must be XML compatible")):
        write_report_files(sample_report(), tmp_path)
    assert (tmp_path / "report.docx").read_bytes() == b"previous good document"
    assert not list(tmp_path.glob(".*.tmp"))


def test_figure_write_failure_is_named(tmp_path: Path) -> None:
    (tmp_path / "figures").write_text("a file where the folder should be", encoding="utf-8")
    with pytest.raises(RenderError, match=re.escape(f"cannot write {tmp_path / 'figures' / 'fig-1.svg'}")):
        write_report_files(sample_report(), tmp_path)
    assert not (tmp_path / "report.md").exists()  # never a report whose figures are missing


def test_chart_with_an_outside_reference_fails_loudly(tmp_path: Path) -> None:
    report = sample_report()
    report.figures[0].svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                             '<image href="file:///etc/hostname" width="10" height="10"/></svg>')
    with pytest.raises(ForbiddenURLError, match=re.escape(str(tmp_path / "report.pdf"))):
        write_report_files(report, tmp_path)
    assert not (tmp_path / "report.pdf").exists() and not (tmp_path / "report.docx").exists()


# ---- no byte of a local file in any output ------------------------------------------------


def _every_byte(folder: Path) -> bytes:
    """All output bytes, with the PDF's text and the DOCX's parts unpacked."""
    chunks = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        chunks.append(data)
        if path.suffix == ".pdf" and shutil.which("pdftotext"):
            chunks.append(subprocess.run(["pdftotext", str(path), "-"], capture_output=True,
                                         check=True).stdout)
        if path.suffix == ".docx":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                chunks.extend(archive.read(name) for name in archive.namelist())
    return b"\n".join(chunks)


@pytest.mark.parametrize("source", sorted(p for p in HOSTILE_DIR.iterdir() if p.name != "README.md"),
                         ids=lambda p: p.name)
def test_no_local_file_reaches_any_output(source: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    marker = "SECRET-MARKER-51c0ffee"
    secret.write_text(marker, encoding="utf-8")
    text = source.read_bytes().decode("utf-8", errors="replace")
    lures = (f'<img src="file://{secret}"> ![x](file://{secret}) <link href="{secret}"> '
             f'@import url("file://{secret}"); [a](../../{secret.name})')
    report = sample_report(title=(text[:120] or "untitled") + " " + lures[:60])
    report.sections[1].paragraphs.append(Paragraph.from_sentences(
        [Sentence(text=text, citations=[2]), Sentence(text=lures, citations=[4])]))
    report.references[3].url = f"file://{secret}"
    report.references[2].title = lures
    report.tables = [Table(section_id="wind-power", caption=lures, header=[text[:40], "b"],
                           rows=[[lures, text[:200]]])]
    out = tmp_path / "out"
    write_report_files(report, out, blueprint=sample_blueprint())
    everything = _every_byte(out)
    assert marker.encode() not in everything
    assert b"root:x:0:0" not in everything
    hostname = Path("/etc/hostname")
    if hostname.is_file() and len(name := hostname.read_text().strip()) >= 6:
        assert name.encode() not in everything


def test_the_appendix_counts_tasks_in_the_singular_and_the_plural(tmp_path: Path) -> None:
    """"8 faite(s)" read as a form to fill in: one is "1 dégradée", several "7 faites", in every output."""
    from docx import Document

    from reportgen.render.labels import counted, render_labels

    report = sample_report()
    report.lang = "fr"
    write_report_files(report, tmp_path, blueprint=sample_blueprint())
    counts = "7 faites, 1 dégradée, 2 échouées, 2 sautées"
    assert counts in (tmp_path / "report.md").read_text()
    assert counts in (tmp_path / "report.html").read_text()
    assert any(counts in p.text for p in Document(str(tmp_path / "report.docx")).paragraphs)
    labels = render_labels("es")
    assert counted(labels, "done", 1) == "hecha" and counted(labels, "done", 0) == "hechas"
    assert counted(labels, "appendix_not_run", 1).format(n=1) == "1 tarea no se ejecutó y no tiene barra."
    assert counted(render_labels("zh"), "done", 1) == "完成"  # a language without a singular form


def test_the_appendix_does_not_count_a_task_that_found_nothing_as_failed() -> None:
    """"18 tasks: 9 done, 4 degraded, 5 failed" on a report whose every section was written read as an alarm."""
    from reportgen.blueprint.model import TaskStatus
    from reportgen.blueprint.planner import compile_blueprint
    from reportgen.render.appendix import build_appendix, outcome

    blueprint = compile_blueprint("r", "Tea", ["Camellia", "Drink"], subject="Tea")
    for task in blueprint.tasks:
        task.status = TaskStatus.DONE
    blueprint.task("chart-1").status, blueprint.task("chart-1").status_codes = TaskStatus.FAILED, [605]
    blueprint.task("chart-2").status, blueprint.task("chart-2").status_codes = TaskStatus.FAILED, [604, 604]
    blueprint.task("conclusion").status, blueprint.task("conclusion").status_codes = TaskStatus.FAILED, [605]
    assert outcome(blueprint.task("chart-1"), blueprint) == "found_nothing"
    assert outcome(blueprint.task("chart-2"), blueprint) == "failed"  # a tool that broke is a failure
    assert outcome(blueprint.task("chart-1")) == "failed"  # without its blueprint, as before
    view = build_appendix(blueprint)
    assert view is not None and dict(view.counts)["found_nothing"] == 2 and dict(view.counts)["failed"] == 1
    # a section written without a chart that found nothing is whole; without one whose tool broke, degraded
    blueprint.task("write-1").degraded = blueprint.task("write-2").degraded = True
    assert outcome(blueprint.task("write-1"), blueprint) == "done"
    assert outcome(blueprint.task("write-2"), blueprint) == "degraded"
    assert outcome(blueprint.task("write-1")) == "degraded"
    # a chart whose section could not be written without it is a failure too
    blueprint.task("write-1").status = TaskStatus.SKIPPED
    assert outcome(blueprint.task("chart-1"), blueprint) == "failed"


def test_a_reference_url_reads_decoded_and_links_as_given(tmp_path: Path) -> None:
    """"R%C3%A9volution_industrielle" is shown "Révolution_industrielle"; the link keeps the escapes, and an
    escape that would decode to a control or format character stays escaped."""
    from docx import Document

    from reportgen.render.html import readable_url

    url = "https://fr.wikipedia.org/wiki/R%C3%A9volution_industrielle"
    report = sample_report()
    report.references[0].url = url
    write_report_files(report, tmp_path, blueprint=sample_blueprint())
    shown = "https://fr.wikipedia.org/wiki/Révolution_industrielle"
    assert f'href="{url}">{shown}</a>' in (tmp_path / "report.html").read_text()
    assert f"[{shown.replace('_', chr(92) + '_')}](<{url}>)" in (tmp_path / "report.md").read_text()
    assert any(shown in p.text for p in Document(str(tmp_path / "report.docx")).paragraphs)
    for hostile in ("https://x.org/a%E2%80%AEb", "https://x.org/a%20b", "https://x.org/%FF", "https://x.org/%0A"):
        assert readable_url(hostile) == hostile
    assert readable_url(None) == ""
