"""Your own documents: a Markdown file with several headings is one document per heading."""

from __future__ import annotations

from reportgen.sources.local import load_local_documents, markdown_sections

NOTES = ("# Electricity in Iowa\n\nIowa generates electricity from coal, gas and wind.\n\n"
         "## Wind power in Iowa\n\nIowa's wind farms stand in the north and west.\n\n"
         "## Fossil fuels in Iowa\n\nCoal and natural gas were the largest sources.\n")


def test_each_second_level_heading_is_a_document(tmp_path):
    (tmp_path / "notes.md").write_text(NOTES, encoding="utf-8")
    (tmp_path / "single.md").write_text("# One\n\nOnly one part here.\n\n## Lone heading\n\nText.\n", encoding="utf-8")
    docs = load_local_documents(tmp_path).documents
    notes = [d for d in docs if "notes.md" in d.url]
    assert [d.title for d in notes] == ["Electricity in Iowa", "Wind power in Iowa", "Fossil fuels in Iowa"]
    assert notes[1].url.endswith("notes.md#wind-power-in-iowa") and notes[0].url.endswith("notes.md")
    assert "north and west" in notes[1].text and "north and west" not in notes[2].text
    assert len({d.source_id for d in notes}) == 3
    assert len([d for d in docs if "single.md" in d.url]) == 1  # one heading: read whole


def test_headings_without_text_and_hostile_markup(tmp_path):
    assert markdown_sections("## A\n\n## B\n\n") == []  # no part holds text
    parts = markdown_sections("## <script>x</script> A\n\nBody one.\n\n## B ![i](file:///etc/passwd)\n\nBody two.\n")
    assert len(parts) == 2
    assert all("<script" not in f"{t} {text}" and "passwd" not in f"{t} {text}" for t, text, _ in parts)
    assert [text.splitlines()[-1] for _, text, _ in parts] == ["Body one.", "Body two."]


def test_a_pdf_without_a_title_takes_its_first_short_line(tmp_path):
    import weasyprint

    weasyprint.HTML(string="<h1>Iowa electricity in 2017</h1><p>Net generation by source.</p>").write_pdf(
        tmp_path / "summary.pdf")
    (doc,) = load_local_documents(tmp_path).documents
    assert doc.title == "Iowa electricity in 2017"
