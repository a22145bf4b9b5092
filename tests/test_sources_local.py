"""The user's corpus folder: hostile files, encodings, formats, scale, folder errors."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.sources import (
    MAX_FILE_BYTES,
    LocalLoad,
    clean_text,
    folder_fingerprint,
    html_to_text,
    load_local_documents,
    markdown_to_text,
)

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"

#: C0 controls other than newline (tab is normalised to a space too), DEL, C1.
CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
#: Anything that looks like markup.
TAG_RE = re.compile(r"<\s*/?\s*[A-Za-z!?]")


def make_pdf(text: str, title: str = "") -> bytes:
    """Build a minimal valid one-page PDF showing ``text`` (ASCII, no parentheses)."""
    content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Title (" + title.encode("ascii") + b") >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return out


@pytest.fixture(scope="module")
def hostile() -> LocalLoad:
    return load_local_documents(HOSTILE)


def _doc(load: LocalLoad, name: str):
    for doc in load.documents:
        if doc.url.endswith("/" + name):
            return doc
    raise AssertionError(f"{name} was not loaded; skipped: {load.skipped}")


# --------------------------------------------------------------------------- hostile files

HOSTILE_CASES = {
    "script-and-handlers.html": (
        "Tidal power basics",
        [
            "Tidal power converts the energy of rising and falling sea levels into electricity.",
            "The first large tidal plant opened in 1966 with a capacity of 240 MW.",
            "Tidal stream generators resemble underwater wind turbines",
            "Read more",
        ],
        ["document.cookie", "alert", "127.0.0.1", "javascript", "onmouseover", "onerror", "fetch("],
    ),
    "local-file-image.md": (
        "Geothermal heating",
        [
            "Geothermal heat pumps move heat between a building and the ground",
            "A typical household system draws 1 kWh of electricity for every 3 to 4 kWh",
        ],
        ["/etc/", "passwd", "hostname", "environ", "file:", "installation diagram",
         "site photo", "relative path", "![", "../"],
    ),  # fmt: skip
    "metadata-ssrf.html": (
        "Grid storage",
        [
            "Pumped hydro storage makes up most of the world's grid storage capacity",
            "Battery storage installations grew quickly after 2015",
        ],
        ["169.254", "127.0.0.1", "::1", "evil.css", "passwd", "meta-data", "http"],
    ),
    "css-exfil.html": (
        "Heat networks",
        [
            "District heating distributes heat from a central source through insulated pipes",
            "Some networks reach 60 percent of homes in their city.",
        ],
        ["@import", "file:", "passwd", "hostname", "font-face", "background", "url(", "leak"],
    ),
    "cp1252.txt": (
        "cp1252",
        [
            "Operators say it’s the variability of wind",
            "Engineers speak of “capacity factor” – the ratio of actual output",
            "25 to 35 percent",
        ],
        ["\ufffd", "Â", "â€"],
    ),
    "malformed-table.md": (
        "Solar module prices",
        ["Prices per watt fell sharply over the decade.", "2010", "2.00", "0.60", "2023"],
        [],
    ),
    "control-chars.txt": (
        "control-chars",
        [
            "Hydro power note.",
            "Run-of-river plants keep little or no reservoir and follow the river flow.",
            "red?",
        ],
        ["[31m", "\x1b"],
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CASES))
def test_hostile_file_keeps_its_text_and_nothing_else(hostile: LocalLoad, name: str) -> None:
    title, wanted, forbidden = HOSTILE_CASES[name]
    doc = _doc(hostile, name)
    assert doc.title == title
    for text in wanted:
        assert text in doc.text
    for text in forbidden:
        assert text not in doc.text, text
        assert text not in doc.title, text
    assert not CONTROL_RE.search(doc.text)
    assert not TAG_RE.search(doc.text)


@pytest.mark.parametrize(
    ("name", "reason"), [("empty.md", "empty"), ("not-a-pdf.pdf", "not a valid PDF")]
)
def test_hostile_file_skipped_with_reason(hostile: LocalLoad, name: str, reason: str) -> None:
    reasons = {item.path.name: item.reason for item in hostile.skipped}
    assert reasons[name] == reason
    assert not any(doc.url.endswith("/" + name) for doc in hostile.documents)


def test_every_hostile_file_is_accounted_for(hostile: LocalLoad) -> None:
    loaded = {Path(doc.url).name for doc in hostile.documents}
    skipped = {item.path.name for item in hostile.skipped}
    assert loaded | skipped == {path.name for path in HOSTILE.iterdir()}
    assert not loaded & skipped


def test_document_identity(hostile: LocalLoad) -> None:
    for doc in hostile.documents:
        assert re.fullmatch(r"local:[0-9a-f]{16}", doc.source_id)
        assert doc.url.startswith("file:///")
        assert doc.corpus == "local"
        assert doc.text == doc.text.strip()
    assert len({doc.source_id for doc in hostile.documents}) == len(hostile.documents)
    doc = _doc(hostile, "cp1252.txt")
    assert doc.url == (HOSTILE / "cp1252.txt").resolve().as_uri()


# --------------------------------------------------------------------------- formats


def test_decoding_fallbacks(tmp_path: Path) -> None:
    (tmp_path / "bom.txt").write_bytes("\ufeffcafé au lait".encode())
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9 \x81 ok")  # 0x81 is undefined in cp1252
    (tmp_path / "utf16.txt").write_bytes("énergie".encode("utf-16"))
    texts = {Path(doc.url).name: doc.text for doc in load_local_documents(tmp_path).documents}
    assert texts == {"bom.txt": "café au lait", "latin1.txt": "café ok", "utf16.txt": "énergie"}


def test_valid_pdf_text_and_title(tmp_path: Path) -> None:
    wave = make_pdf("Wave energy converters ride the swell.", "Wave power")
    (tmp_path / "wave.pdf").write_bytes(wave)
    (tmp_path / "untitled.pdf").write_bytes(make_pdf("Ocean thermal energy conversion."))
    load = load_local_documents(tmp_path)
    docs = {Path(doc.url).name: doc for doc in load.documents}
    assert docs["wave.pdf"].title == "Wave power"
    assert "Wave energy converters ride the swell." in docs["wave.pdf"].text
    assert docs["untitled.pdf"].title == "untitled"
    assert load.skipped == []


def test_truncated_pdf_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "ok.txt").write_text("Some text.")
    (tmp_path / "broken.pdf").write_bytes(make_pdf("Hello there.")[:60])
    load = load_local_documents(tmp_path)
    reasons = {item.path.name: item.reason for item in load.skipped}
    assert reasons.get("broken.pdf") in {"not a valid PDF", "empty"}


def test_markdown_reduction() -> None:
    source = (
        "---\ntitle: front matter\n---\n"
        "# The *real* title\n\n"
        "See [the docs](https://example.org/docs) and [bad](javascript:alert(1)).\n"
        "Inline <b>bold</b> and <script>alert(1)</script> here.\n\n"
        "![a spaced](file:///my pictures/x.png) ![ref image][img]\n\n"
        "[img]: file:///etc/passwd\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| x |\n\n"
        "<div>block <img src='file:///etc/hostname'> html</div>\n\n"
        "```\ncode stays\n```\n"
    )
    title, text = markdown_to_text(source)
    assert title == "The real title"
    assert "See the docs and bad." in text
    assert "Inline bold and here." in text
    assert "a | b\n1 | 2" in text
    assert "block html" in text
    assert "code stays" in text
    forbidden = ("https://", "javascript", "alert", "file:", "passwd", "hostname", "front matter")
    for bad in (*forbidden, "<", "!["):
        assert bad not in text


def test_large_markdown_uses_the_fast_path() -> None:
    unit = "Wind [links](http://x.example) ![img](file:///etc/passwd) <b>bold</b> go. "
    title, text = markdown_to_text("# Big <i>doc</i>\n\n" + unit * 15_000)
    assert title == "Big doc"
    assert "Wind links bold go." in text
    for bad in ("http", "file:", "passwd", "<b>", "!["):
        assert bad not in text


def test_html_reduction() -> None:
    title, text = html_to_text(
        '<?xml version="1.0" encoding="utf-8"?><html><head><title> A\n title </title></head>'
        "<body><nav>Menu</nav><h2>Part</h2><p>One<br>two</p><table><tr><td>a</td><td>b</td></tr>"
        "</table><!-- secret --><noscript>js off</noscript><p>End &amp; more</p></body></html>"
    )
    assert title == "A title"
    assert text == "Menu\n\nPart\n\nOne\ntwo\n\na | b\n\nEnd & more"
    assert html_to_text("") == ("", "")
    assert html_to_text("<html></html>") == ("", "")


def test_html_title_falls_back_to_h1_then_stem(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text("<h1>Heading one</h1><p>Body.</p>")
    (tmp_path / "b.htm").write_text("<p>Only body.</p>")
    titles = {Path(d.url).name: d.title for d in load_local_documents(tmp_path).documents}
    assert titles == {"a.html": "Heading one", "b.htm": "b"}


def test_clean_text() -> None:
    dirty = "a\x00b\x07c\x1b[1;31md\x1b[0m e\tf\u00a0g  \r\n\r\n\r\n\r\nh "
    assert clean_text(dirty) == "abcd e f g\n\nh"
    assert clean_text("e\u0301") == "é"  # NFC
    assert clean_text("\x00\x01 \n ") == ""


# --------------------------------------------------------------------------- scale


def test_five_megabyte_single_line(tmp_path: Path) -> None:
    sentence = "The wind turbine spins steadily above the plain. "
    (tmp_path / "big.txt").write_text(sentence * (5_000_000 // len(sentence) + 1) + "FINALWORD")
    started = time.perf_counter()
    load = load_local_documents(tmp_path)
    assert time.perf_counter() - started < 5
    (doc,) = load.documents
    assert len(doc.text) > 5_000_000
    assert "\n" not in doc.text
    assert doc.text.endswith("FINALWORD")


def test_thousand_small_files(tmp_path: Path) -> None:
    for i in range(1000):
        folder = tmp_path / f"part{i % 10}"
        folder.mkdir(exist_ok=True)
        suffix = (".md", ".txt", ".html")[i % 3]
        (folder / f"note{i:04d}{suffix}").write_text(f"# Note {i}\n\nFact number {i} about wind.")
    started = time.perf_counter()
    load = load_local_documents(tmp_path)
    assert time.perf_counter() - started < 5
    assert len(load.documents) == 1000
    assert load.skipped == []
    assert len({doc.source_id for doc in load.documents}) == 1000


def test_oversized_file_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "ok.md").write_text("Fine.")
    with (tmp_path / "huge.txt").open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no real disk use
    load = load_local_documents(tmp_path)
    (item,) = load.skipped
    assert item.path.name == "huge.txt"
    assert item.reason.startswith("larger than 20 MB")


# --------------------------------------------------------------------------- walking


def test_symlinks(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("Outside secret.")
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "real.txt").write_text("Inside text.")
    os.symlink(outside / "secret.txt", corpus / "leak.txt")
    os.symlink(outside, corpus / "leakdir")
    os.symlink(corpus / "real.txt", corpus / "sub" / "alias.txt")
    load = load_local_documents(corpus)
    assert [doc.text for doc in load.documents] == ["Inside text."]
    reasons = {item.path.name: item.reason for item in load.skipped}
    assert reasons == {
        "leak.txt": "symlink points outside the corpus folder",
        "leakdir": "symlink points outside the corpus folder",
    }


def test_hidden_and_unsupported_files_are_ignored(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "notes.md").write_text("Hidden.")
    (tmp_path / ".draft.md").write_text("Hidden too.")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / "UPPER.MD").write_text("Visible.")
    load = load_local_documents(tmp_path)
    assert [doc.text for doc in load.documents] == ["Visible."]
    assert load.skipped == []


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^corpus folder .*nope does not exist$"):
        load_local_documents(tmp_path / "nope")


def test_file_is_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(InputError, match="is not a folder"):
        load_local_documents(tmp_path / "f.txt")


def test_folder_without_usable_files(tmp_path: Path) -> None:
    (tmp_path / "picture.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(InputError, match=r"holds no readable \.md, \.txt, \.html or \.pdf files and no table "
                                         r"\(\.csv, \.tsv, \.xlsx, \.json\)$"):
        load_local_documents(tmp_path)
    shutil.copy(HOSTILE / "empty.md", tmp_path)
    shutil.copy(HOSTILE / "not-a-pdf.pdf", tmp_path)
    with pytest.raises(InputError, match=r"\(2 skipped: empty, not a valid PDF\)$") as info:
        load_local_documents(tmp_path)
    assert "\n" not in str(info.value)


def test_folder_fingerprint_tracks_changes(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("One.")
    first = folder_fingerprint(tmp_path)
    assert folder_fingerprint(tmp_path) == first
    (tmp_path / "ignored.png").write_bytes(b"x")
    assert folder_fingerprint(tmp_path) == first
    (tmp_path / "a.md").write_text("One and more.")
    second = folder_fingerprint(tmp_path)
    assert second != first
    (tmp_path / "b.txt").write_text("Two.")
    assert folder_fingerprint(tmp_path) not in {first, second}
    with pytest.raises(InputError):
        folder_fingerprint(tmp_path / "missing")


def test_undecodable_file_name(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9.txt"  # Latin-1 byte in a UTF-8 file system
    with open(raw, "wb") as handle:
        handle.write(b"Coffee notes.")
    (doc,) = load_local_documents(tmp_path).documents
    assert doc.title == "caf"
    assert doc.url.endswith("/caf%E9.txt")
    doc.model_dump_json()  # serialisable: no lone surrogates


def test_pathological_html_keeps_its_text() -> None:
    huge = "<p>" + "word " * 2_400_000 + "END</p>"  # a 12 MB text node
    assert html_to_text(huge)[1].endswith("word END")
    deep = "<div>" * 100_000 + "deep text" + "</div>" * 100_000 + "<p>after</p>"
    text = html_to_text(deep)[1]
    assert "deep text" in text and "after" in text
    unclosed = "<div>" * 5000 + "<p>kept</p><img alt='a>b' src='file:///etc/passwd'><script>alert(1)"
    text = html_to_text(unclosed)[1]
    assert "kept" in text
    for bad in ("alert", "passwd", "<", "src="):
        assert bad not in text
