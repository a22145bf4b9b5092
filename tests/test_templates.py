"""Report templates: themes, user folders, the sandbox, and the README's worked example."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reportgen.errors import RenderError
from reportgen.render import BUILTIN_TEMPLATE_DIR, available_templates, build_appendix, render_html

from factories import sample_blueprint, sample_report
from test_render_html import Page, assert_inert

README = Path(__file__).resolve().parents[1] / "README.md"


# ---- themes -------------------------------------------------------------------------


def test_builtin_themes_are_installed() -> None:
    assert available_templates() == ["brief", "report"]
    for name in ("base.html.j2", "report.html.j2", "brief.html.j2", "base.css", "report.css",
                 "brief.css", "custom.css"):
        assert (BUILTIN_TEMPLATE_DIR / name).is_file(), name


def test_base_layout_has_the_named_blocks() -> None:
    source = (BUILTIN_TEMPLATE_DIR / "base.html.j2").read_text(encoding="utf-8")
    blocks = set(re.findall(r"{%-?\s*block\s+(\w+)", source))
    assert {"cover", "toc", "section", "figure", "table", "references", "limitations",
            "appendix"} <= blocks


def test_brief_theme_is_short(snapshot) -> None:
    report = sample_report()
    full = Page(render_html(report, template="report"))
    brief = Page(render_html(report, template="brief"))
    assert full.tags("nav") and not brief.tags("nav")  # no table of contents
    assert [a.get("class") for a in brief.tags("body")] == ["theme-brief"]
    assert [a.get("class") for a in brief.tags("ul")] == ["limitation-list"]
    assert "/* ---- brief.css ---- */" in brief.styles[0]
    assert "/* ---- report.css ---- */" not in brief.styles[0]
    for section in report.sections:  # the same content
        assert section.title in brief.visible_text
    assert "\n".join(brief.outline) == snapshot


def test_user_folder_adds_a_theme(tmp_path: Path) -> None:
    (tmp_path / "memo.html.j2").write_text(
        '{% extends "base.html.j2" %}{% block toc %}<p class="memo">memo</p>{% endblock %}',
        encoding="utf-8",
    )
    (tmp_path / "Bad Name.html.j2").write_text("x", encoding="utf-8")
    (tmp_path / "base.html.j2").write_text('{% extends "builtin/base.html.j2" %}', encoding="utf-8")
    assert available_templates(tmp_path) == ["brief", "memo", "report"]
    page = Page(render_html(sample_report(), tmp_path, template="memo"))
    assert [a.get("class") for a in page.tags("p") if a.get("class") == "memo"] == ["memo"]


@pytest.mark.parametrize("name", ["../report", "report.html.j2", "/etc/passwd", "Report", "", "a b"])
def test_templates_are_chosen_by_plain_name_only(name: str) -> None:
    with pytest.raises(RenderError, match="not a plain name"):
        render_html(sample_report(), template=name)


def test_unknown_theme(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="no template named 'glossy'"):
        render_html(sample_report(), tmp_path, template="glossy")


def test_missing_template_folder_for_listing(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="does not exist"):
        available_templates(tmp_path / "nope")


# ---- the sandbox ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("ok\n{{ report.__class__.__mro__ }}", 2, "SecurityError"),
        ("\n\n{{ report.model_dump.__globals__ }}", 3, "SecurityError"),
        ("{{ lipsum.__globals__['os'] }}", 1, "SecurityError"),
        ("{{ cycler.__init__.__globals__ }}", 1, "SecurityError"),
        ("{{ ''.__class__.__base__.__subclasses__() }}", 1, "SecurityError"),
        ("{{ report.sections.append(1) }}", 1, "SecurityError"),
        ("{{ labels.update({'x': 1}) }}", 1, "SecurityError"),
        ("{{ report.title.format_map.__self__ }}", 1, "UndefinedError"),  # the wrapper has none
        ("x\n{{ no_such_name }}", 2, "UndefinedError"),
        ("{% autoescape false %}{{ report.title }}{% endautoescape %}", 1, "autoescaping cannot be changed"),
        ("{% if %}", 1, "Expected an expression"),
    ],
)
def test_sandbox_violations_name_the_template_and_line(
    tmp_path: Path, body: str, line: int, message: str
) -> None:
    (tmp_path / "report.html.j2").write_text(body, encoding="utf-8")
    with pytest.raises(RenderError) as caught:
        render_html(sample_report(), template_dir=tmp_path)
    text = str(caught.value)
    assert f"{tmp_path / 'report.html.j2'}, line {line}" in text
    assert message in text


def test_error_in_an_included_file_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "report.html.j2").write_text(
        '{% extends "builtin/report.html.j2" %}\n{% block toc %}{% include "part.j2" %}{% endblock %}',
        encoding="utf-8",
    )
    (tmp_path / "part.j2").write_text("one\ntwo\n{{ report.__dict__ }}\n", encoding="utf-8")
    with pytest.raises(RenderError, match=re.escape(f"{tmp_path / 'part.j2'}, line 3")):
        render_html(sample_report(), template_dir=tmp_path)


def test_safe_filter_sanitises_instead_of_trusting(tmp_path: Path) -> None:
    (tmp_path / "report.html.j2").write_text(
        '{% extends "builtin/report.html.j2" %}\n'
        "{% block toc %}<div>{{ report.title | safe }}</div>{% endblock %}",
        encoding="utf-8",
    )
    report = sample_report(title='<b>bold</b><script>alert(1)</script><img src="file:///etc/passwd">'
                                  '<a href="javascript:x()" onclick="y()">a</a>')
    html = render_html(report, template_dir=tmp_path)
    toc = html[html.index("<div>"):html.index("</div>") + 6]
    assert toc == '<div><b>bold</b><a rel="noopener noreferrer nofollow">a</a></div>'


def test_runaway_template_is_stopped(tmp_path: Path) -> None:
    (tmp_path / "report.html.j2").write_text(
        "{% for i in range(100000) %}{% for j in range(100000) %}{{ report.title }}"
        "{% endfor %}{% endfor %}",
        encoding="utf-8",
    )
    with pytest.raises(RenderError, match=r"report\.html\.j2.*took longer than 0\.3 s"):
        render_html(sample_report(), template_dir=tmp_path, timeout_s=0.3)


def test_self_extending_template_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "base.html.j2").write_text('{% extends "base.html.j2" %}', encoding="utf-8")
    with pytest.raises(RenderError, match="recurses|base.html.j2"):
        render_html(sample_report(), template_dir=tmp_path)


def test_user_template_output_is_still_inert(tmp_path: Path) -> None:
    """A user's block override printing every hostile field stays escaped."""
    (tmp_path / "report.html.j2").write_text(
        '{% extends "builtin/report.html.j2" %}\n'
        "{% block section %}<section id=\"{{ section.id }}\"><h2>{{ section.title }}</h2>"
        "{% for p in section.paragraphs %}<p>{{ p.text }}</p>{% endfor %}</section>{% endblock %}",
        encoding="utf-8",
    )
    report = sample_report()
    report.sections[1].title = '<script>alert(1)</script><img src=x onerror="y()">'
    assert_inert(Page(render_html(report, template_dir=tmp_path)))


# ---- the README's worked example ------------------------------------------------------


def _readme_example() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Customising templates"):]
    section = section[: section.index("\n## ", 3)]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "the README's 'Customising templates' section has no ```sh example"
    return block.group(1).splitlines()


def test_readme_worked_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the README's example as written: shell lines make the folder, then the CLI."""
    from reportgen.cli import app
    from reportgen.config import get_settings
    from reportgen.sources import open_wiki_backend

    lines = _readme_example()
    (command_index,) = [i for i, line in enumerate(lines) if "reportgen report" in line]
    setup = "\n".join(lines[:command_index])
    subprocess.run(["bash", "-euo", "pipefail", "-c", setup], cwd=tmp_path, check=True, timeout=30)
    args = shlex.split(lines[command_index])
    assert args[0].endswith("reportgen") and args[1] == "report"

    monkeypatch.chdir(tmp_path)
    open_wiki_backend("en", directory=get_settings().index_dir).close()
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [*args[1:], "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    (folder,) = out.iterdir()
    html = (folder / "report.html").read_text(encoding="utf-8")
    page = Page(html)

    # The cover changed ...
    kicker = [a for a in page.tags("p") if a.get("class") == "kicker"]
    assert kicker and "Acme Energy Research" in page.visible_text
    assert "Prepared for the Acme board" in page.visible_text
    # ... the colours and the font changed (custom.css comes last) ...
    custom = (tmp_path / "my-templates" / "custom.css").read_text(encoding="utf-8").strip()
    assert page.styles[0].rstrip().endswith(custom)
    assert "#8c1d40" in custom and '"Noto Serif"' in custom
    # ... and everything else is the built-in report.
    assert page.tags("nav") and [a.get("id") for a in page.tags("section")][-1] == "appendix"
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(folder / "report.pdf")], capture_output=True,
                               text=True, check=True).stdout
        assert "Noto-Serif" in fonts
        first_page = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(folder / "report.pdf"), "-"],
                                    capture_output=True, text=True, check=True).stdout
        assert "ACMEENERGYRESEARCH" in re.sub(r"\s+", "", first_page)  # spaced capitals


def test_appendix_on_and_off() -> None:
    report = sample_report()
    with_appendix = Page(render_html(report, appendix=build_appendix(sample_blueprint())))
    without = Page(render_html(report))
    assert [a.get("id") for a in with_appendix.tags("section")][-1] == "appendix"
    assert [a.get("id") for a in with_appendix.tags("figure")] == [
        "fig-1", "appendix-graph", "appendix-timeline"]
    assert "12 tasks: 7 done, 1 degraded, 2 failed, 2 skipped" in with_appendix.visible_text
    assert "#appendix" in [a.get("href") for a in with_appendix.tags("a")]
    assert "appendix" not in [a.get("id") for a in without.tags("section")]
    assert "#appendix" not in [a.get("href") for a in without.tags("a")]


# ---- the command line -------------------------------------------------------------------


def _corpus(folder: Path) -> Path:
    from fakes import ENERGY_DOCS

    folder.mkdir()
    for doc in ENERGY_DOCS:
        name = doc["title"].lower().replace(" ", "-")
        (folder / f"{name}.md").write_text(f"# {doc['title']}\n\n{doc['text']}\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--template", "glossy"], "unknown template 'glossy'; installed: brief, report"),
        (["--template", "../report"], "unknown template '../report'; installed: brief, report"),
        (
            ["--template-dir", "/nonexistent/templates"],
            "--template-dir: template folder /nonexistent/templates does not exist",
        ),
    ],
)
def test_cli_refuses_a_bad_template_before_any_work(tmp_path: Path, args: list[str], message: str) -> None:
    from reportgen.cli import app

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["report", "Renewable energy", "--corpus", str(_corpus(tmp_path / "docs")),
                                      "--no-wiki", *args, "--out", str(out), "--quiet"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0] == f"error: {message}"
    assert not out.exists()


def test_cli_brief_theme_without_appendix(tmp_path: Path) -> None:
    from reportgen.cli import app

    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "report", "Renewable energy", "--corpus", str(_corpus(tmp_path / "docs")), "--no-wiki",
        "--sections", "2", "--template", "brief", "--no-appendix", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    (folder,) = out.iterdir()
    for name in ("report.md", "report.docx"):
        assert str(folder / name) in result.stdout  # the exports are listed with the rest
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert '<body class="theme-brief">' in html and 'id="appendix"' not in html
    assert "Appendix" not in (folder / "report.md").read_text(encoding="utf-8")


def test_cli_template_error_names_file_and_line(tmp_path: Path) -> None:
    from reportgen.cli import app

    templates = tmp_path / "my-templates"
    templates.mkdir()
    (templates / "report.html.j2").write_text(
        '{% extends "builtin/report.html.j2" %}\n{% block cover %}\n{{ report.__class__ }}\n{% endblock %}\n',
        encoding="utf-8")
    result = CliRunner().invoke(app, [
        "report", "Renewable energy", "--corpus", str(_corpus(tmp_path / "docs")), "--no-wiki",
        "--sections", "1", "--template-dir", str(templates), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: cannot write ") and "report.html: cannot render HTML: " in line
    assert f"{templates / 'report.html.j2'}, line 3: SecurityError" in line
