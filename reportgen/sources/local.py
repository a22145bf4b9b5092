"""The user's own documents: a folder of Markdown, text, HTML and PDF files.

:func:`load_local_documents` walks a ``--corpus`` folder and turns every
supported file into a plain-text :class:`~reportgen.sources.models.Document`.
Files are data, never markup: HTML and Markdown are reduced to their text
(scripts, styles, frames, images and every URL of an image are dropped; links
keep their text only), bytes that are not UTF-8 are decoded as Windows-1252 or
Latin-1, control characters are removed. A file that cannot be used (not a real
PDF, empty, too large, a symlink leaving the folder) is skipped with a reason
the report's limitations note can show; only a folder with nothing usable at
all is an error.
"""

from __future__ import annotations

import hashlib
import html as htmllib
import io
import logging
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import lxml.etree
from pydantic import BaseModel, Field

from reportgen.errors import InputError
from reportgen.sources.models import Document
from reportgen.sources.text import clean_text

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = [
    "LOCAL_PREFIX",
    "LocalLoad",
    "MAX_FILE_BYTES",
    "SUPPORTED_SUFFIXES",
    "SkippedFile",
    "folder_fingerprint",
    "html_to_text",
    "is_inside",
    "is_local",
    "load_local_documents",
    "markdown_sections",
    "markdown_to_text",
    "walk_corpus",
]

logger = logging.getLogger(__name__)

#: File name suffixes read from a corpus folder (compared in lower case).
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(
    {".md", ".markdown", ".txt", ".html", ".htm", ".pdf"}
)

#: Data files, read as text only when a folder holds no text document
#: (:func:`reportgen.sources.tables.table_documents`); same as its ``DATA_SUFFIXES``.
_DATA_SUFFIXES: frozenset[str] = frozenset({".csv", ".tsv", ".xlsx", ".json"})

#: Largest file read, in bytes (20 MB): larger files are skipped, so one
#: stray dump cannot stall indexing or exhaust memory.
MAX_FILE_BYTES = 20 * 1024 * 1024

#: Longest title kept, in characters.
_MAX_TITLE_CHARS = 200


class SkippedFile(BaseModel):
    """A file of the corpus folder that was not loaded.

    Attributes:
        path: The file's path (as found under the folder, not resolved).
        reason: Why, for people (``"empty"``, ``"not a valid PDF"``, ...).
    """

    path: Path
    reason: str


class LocalLoad(BaseModel):
    """What :func:`load_local_documents` read from one folder.

    Attributes:
        documents: The loaded documents, in path order.
        skipped: Supported files that could not be used, each with a reason.
    """

    documents: list[Document] = Field(default_factory=list)
    skipped: list[SkippedFile] = Field(default_factory=list)


# --------------------------------------------------------------------------- walking


def _check_folder(folder: Path) -> Path:
    if not folder.exists():
        raise InputError(f"corpus folder {folder} does not exist")
    if not folder.is_dir():
        raise InputError(f"corpus folder {folder} is not a folder")
    return folder.resolve()


def is_inside(path: Path, root: Path) -> bool:
    """Whether ``path`` resolves (symlinks followed) to a place inside ``root``."""
    try:
        path.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def walk_corpus(
    folder: Path, root: Path, skipped: list[SkippedFile] | None, suffixes: frozenset[str] | None = None
) -> Iterator[Path]:
    """Yield the files under ``folder`` with one of ``suffixes``, in a stable order.

    The one walking rule of every reader of a corpus folder (documents and
    tables): hidden files and folders (name starting with ``.``) are ignored;
    symlinks are followed only when they resolve inside ``root``; symlinked
    folders are never descended (their target, when inside, is walked anyway).

    Args:
        folder: Where to start.
        root: The corpus folder nothing may escape.
        skipped: Receives a :class:`SkippedFile` per symlink pointing outside.
        suffixes: File name suffixes wanted, lower case; default :data:`SUPPORTED_SUFFIXES`.
    """
    wanted = SUPPORTED_SUFFIXES if suffixes is None else suffixes
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        base = Path(dirpath)
        kept_dirs = []
        for name in sorted(dirnames):
            if name.startswith("."):
                continue
            sub = base / name
            if sub.is_symlink():
                if skipped is not None and not is_inside(sub, root):
                    skipped.append(
                        SkippedFile(path=sub, reason="symlink points outside the corpus folder")
                    )
                continue
            kept_dirs.append(name)
        dirnames[:] = kept_dirs
        for name in sorted(filenames):
            if name.startswith(".") or Path(name).suffix.lower() not in wanted:
                continue
            path = base / name
            if path.is_symlink() and not is_inside(path, root):
                if skipped is not None:
                    skipped.append(
                        SkippedFile(path=path, reason="symlink points outside the corpus folder")
                    )
                continue
            yield path


def folder_fingerprint(folder: Path) -> str:
    """Fingerprint a corpus folder so a cached index is reused only while it is unchanged.

    Hashes the folder's resolved path and, for every supported file and data
    file (CSV, TSV, XLSX, JSON: read as text when the folder has no text
    document), its relative path, size (bytes) and modification time (ns). Files are only
    stat-ed, never read.

    Args:
        folder: The corpus folder.

    Returns:
        A 40-hex-digit SHA-1.

    Raises:
        reportgen.errors.InputError: The folder does not exist or is not a folder.
    """
    root = _check_folder(folder)
    digest = hashlib.sha1(root.as_posix().encode("utf-8", "surrogatepass"))
    for path in walk_corpus(root, root, None, SUPPORTED_SUFFIXES | _DATA_SUFFIXES):
        try:
            stat = path.stat()
        except OSError:
            continue
        rel = path.relative_to(root).as_posix()
        entry = f"\0{rel}\0{stat.st_size}\0{stat.st_mtime_ns}"
        digest.update(entry.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# --------------------------------------------------------------------------- decoding


def _decode(data: bytes) -> str:
    """Decode bytes as UTF-8 (BOM-aware, UTF-16 with BOM), else Windows-1252, else Latin-1."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


# --------------------------------------------------------------------------- HTML

#: Elements whose content is never text: code, styling, embedded or foreign content.
_DROP_TAGS = frozenset(
    {
        "script", "style", "head", "title", "iframe", "frame", "frameset", "object", "embed",
        "applet", "noscript", "template", "svg", "math", "canvas", "audio", "video", "picture",
        "img", "map", "link", "meta", "base", "input", "select", "textarea", "button", "param",
        "source", "track",
    }
)  # fmt: skip
#: Elements that start a new line of text.
_BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
        "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
        "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul",
    }
)  # fmt: skip
_PARAGRAPH_TAGS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol"}
)
_CELL_TAGS = frozenset({"td", "th"})
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)


def _local_name(tag: object) -> str | None:
    if not isinstance(tag, str):
        return None  # comment, processing instruction, entity
    return tag.rsplit("}", 1)[-1].lower()


def _element_text(element: lxml.etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def html_to_text(html: str) -> tuple[str, str]:
    """Reduce an HTML document to its title and plain text.

    Only text survives: scripts, styles, the ``<head>``, frames, objects,
    SVG, images and form controls are dropped with their content; attributes
    (event handlers, ``style``, ``src``, ``href``) are never read. Block
    elements start new lines, paragraphs and headings new paragraphs, table
    cells are separated by `` | ``. No network access, no entity expansion
    from outside.

    Args:
        html: The document's markup, already decoded.

    Returns:
        ``(title, text)``: the ``<title>`` or else first ``<h1>`` text (``""``
        when neither exists) and the cleaned text (``""`` when there is none).
    """
    # huge_tree lifts libxml2's 10 MB text-node and 256-level depth limits
    # (files are capped at MAX_FILE_BYTES and the walk below is iterative).
    parser = lxml.etree.HTMLParser(
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        recover=True,
        encoding="utf-8",
        huge_tree=True,
    )
    try:
        root = lxml.etree.fromstring(
            _XML_DECL_RE.sub("", html, count=1).encode("utf-8", "replace"), parser
        )
    except (lxml.etree.LxmlError, ValueError):
        root = None
    if root is None:
        return "", _html_by_regex(html)
    title, text = _tree_to_text(root)
    if len(text) < 1000 or len(text) < len(html) // 20:
        # The parser may give up on pathological input (nesting deeper than
        # it accepts): never lose text to it.
        fallback = _html_by_regex(html)
        if len(fallback) > 2 * len(text) + (20 if text else 0):
            text = fallback
    return title, text


_HTML_DROP_BLOCK_RE = re.compile(
    r"<(script|style|head|title|iframe|object|embed|applet|noscript|template|svg|math|canvas"
    r"|audio|video|textarea|select|button)\b.*?</\1\s*>",
    re.IGNORECASE | re.DOTALL,
)
_HTML_UNCLOSED_RE = re.compile(
    r"<(?:script|style|head|iframe|object|noscript|template|svg|textarea)\b.*\Z",
    re.IGNORECASE | re.DOTALL,
)
_HTML_ANY_TAG_RE = re.compile(
    r"<!--.*?(?:-->|\Z)|<[!?/]?[A-Za-z](?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.DOTALL
)
_HTML_BREAK_TAG_RE = re.compile(
    r"<\s*(?:br|/?p|/?div|/?h[1-6]|/?li|/?tr)\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>",
    re.IGNORECASE,
)


def _html_by_regex(html: str) -> str:
    """Strip markup with regexes: the fallback when the HTML parser gives up."""
    text = _HTML_DROP_BLOCK_RE.sub(" ", html)
    text = _HTML_UNCLOSED_RE.sub(" ", text)  # an unclosed <script> runs to the end
    text = _HTML_BREAK_TAG_RE.sub("\n", text)
    text = _HTML_ANY_TAG_RE.sub("", text)
    text = text.replace("<", " ")  # a stray '<' can only be a broken tag
    return clean_text(htmllib.unescape(text))


def _tree_to_text(root: lxml.etree._Element) -> tuple[str, str]:
    """Walk a parsed tree (iteratively: no recursion limit) into (title, text)."""
    title = ""
    for tag in ("title", "h1"):
        found = root.find(f".//{tag}")
        if found is not None:
            title = _element_text(found)
            if title:
                break

    parts: list[str] = []
    skip_depth = 0
    for event, element in lxml.etree.iterwalk(root, events=("start", "end")):
        name = _local_name(element.tag)
        if name is None:
            if event == "end" and skip_depth == 0 and element.tail:
                parts.append(element.tail)
            continue
        if event == "start":
            if skip_depth or name in _DROP_TAGS:
                skip_depth += 1
                continue
            if name in _PARAGRAPH_TAGS:
                parts.append("\n\n")
            elif name in _BLOCK_TAGS or name == "br":
                parts.append("\n")
            elif name in _CELL_TAGS:
                parts.append(" | ")
            if element.text:
                parts.append(element.text)
        else:
            if skip_depth:
                skip_depth -= 1
                if skip_depth == 0 and element.tail:
                    parts.append(element.tail)
                continue
            if name in _PARAGRAPH_TAGS:
                parts.append("\n\n")
            elif name in _BLOCK_TAGS:
                parts.append("\n")
            if element.tail:
                parts.append(element.tail)
    text = clean_text("".join(parts))
    text = re.sub(r"^\| ", "", text, flags=re.MULTILINE)
    return clean_text(title)[:_MAX_TITLE_CHARS], text


# --------------------------------------------------------------------------- Markdown

_FRONT_MATTER_RE = re.compile(
    r"\A(?:---|\+\+\+)[ \t]*\r?\n.*?\r?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL
)
#: Safety net for image syntax CommonMark does not parse (spaces in the URL).
_MD_IMAGE_RE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^>\n]*>")
_RAW_TEXT_TAGS = "script|style|iframe|object|svg|template|noscript"
_RAW_TEXT_OPEN_RE = re.compile(rf"<\s*({_RAW_TEXT_TAGS})\b", re.IGNORECASE)
_RAW_TEXT_CLOSE_RE = re.compile(rf"<\s*/\s*({_RAW_TEXT_TAGS})\s*>", re.IGNORECASE)


#: Largest Markdown source given to the full parser, in characters. The
#: pure-Python parser needs about 1 s per MB of link-dense text; beyond this
#: a regex reduction does the same job (images out, links to text, tags out).
_MARKDOWN_PARSER_LIMIT = 1_000_000
_MD_REF_IMAGE_RE = re.compile(r"!\[[^\]\n]*\]\[[^\]\n]*\]")
_MD_LINK_RE = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_MD_REF_DEF_RE = re.compile(r"^[ ]{0,3}\[[^\]\n]+\]:[^\n]*$", re.MULTILINE)
_MD_RAW_BLOCK_RE = re.compile(
    r"<(script|style|iframe|object|svg|template|noscript)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL
)
_MD_LINE_MARK_RE = re.compile(r"^[ ]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)", re.MULTILINE)
_MD_EMPHASIS_RE = re.compile(r"(\*\*|__|`+)")


def _markdown_by_regex(markdown: str) -> tuple[str, str]:
    """Reduce very large Markdown with regexes (see :data:`_MARKDOWN_PARSER_LIMIT`)."""
    text = _MD_RAW_BLOCK_RE.sub(" ", markdown)
    text = _MD_IMAGE_RE.sub("", text)
    text = _MD_REF_IMAGE_RE.sub("", text)
    text = _MD_LINK_RE.sub(r"\1", text)
    text = _MD_REF_DEF_RE.sub("", text)
    text = _HTML_TAG_RE.sub("", text)
    text = _MD_LINE_MARK_RE.sub("", text)
    text = _MD_EMPHASIS_RE.sub("", text)
    heading = re.search(r"^[ ]{0,3}#{1,6}[ \t]+(.+)$", markdown[:100_000], re.MULTILINE)
    title = ""
    if heading:
        title = clean_text(_HTML_TAG_RE.sub("", _MD_LINK_RE.sub(r"\1", heading.group(1))))
    return title[:_MAX_TITLE_CHARS], clean_text(text)


def _markdown_parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # with the first Markdown file, not the module: start-up (issue 15)

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    # Accept every URL so that ``![x](file:///etc/passwd)`` parses as an image
    # (and is dropped) instead of surviving as literal text; no URL is ever
    # rendered anyway.
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md


def _inline_text(children: list[Token], softbreak: str = " ") -> str:
    out: list[str] = []
    raw_depth = 0
    for child in children:
        kind = child.type
        if kind == "html_inline":
            if _RAW_TEXT_CLOSE_RE.match(child.content):
                raw_depth = max(0, raw_depth - 1)
            elif _RAW_TEXT_OPEN_RE.match(child.content) and not child.content.endswith("/>"):
                raw_depth += 1
            continue
        if raw_depth or kind == "image":
            continue
        if kind in ("text", "code_inline"):
            out.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            out.append(softbreak if kind == "softbreak" else "\n")
    return _MD_IMAGE_RE.sub("", "".join(out))


def markdown_to_text(markdown: str) -> tuple[str, str]:
    """Reduce Markdown to its first heading and plain text.

    Images (Markdown and raw ``<img>``) go entirely, alt text and URL alike;
    links keep their text; raw HTML blocks are reduced with
    :func:`html_to_text`; headings become their own lines; table rows become
    lines with cells separated by `` | ``; code keeps its text. Front matter
    is dropped. Malformed tables simply stay text. Sources over a million
    characters are reduced with regular expressions instead of the parser
    (same rules, coarser tables), to keep loading fast.

    Args:
        markdown: The Markdown source, decoded.

    Returns:
        ``(title, text)``: the first heading (``""`` when none) and the
        cleaned plain text.
    """
    markdown = _FRONT_MATTER_RE.sub("", markdown, count=1)
    if len(markdown) > _MARKDOWN_PARSER_LIMIT:
        return _markdown_by_regex(markdown)
    tokens = _markdown_parser().parse(markdown)
    blocks: list[str] = []
    title = ""
    rows: list[str] = []
    row: list[str] | None = None
    in_heading = False
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            in_heading = True
        elif kind == "heading_close":
            in_heading = False
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            if row is not None and any(cell.strip() for cell in row):
                rows.append(" | ".join(cell.strip() for cell in row))
            row = None
        elif kind == "table_close":
            blocks.append("\n".join(rows))
            rows = []
        elif kind == "inline":
            if row is not None:
                row.append(_inline_text(token.children or []))
                continue
            lines = token.content.splitlines()
            if len(lines) > 1 and all("|" in line for line in lines):
                # A malformed table CommonMark left as a paragraph: one row a line.
                text = _inline_text(token.children or [], softbreak="\n")
                text = "\n".join(line.strip().strip("|").strip() for line in text.split("\n"))
            else:
                text = _inline_text(token.children or [])
            if in_heading and not title and text.strip():
                title = clean_text(text)
            blocks.append(text)
        elif kind in ("fence", "code_block"):
            blocks.append(token.content)
        elif kind == "html_block":
            blocks.append(html_to_text(token.content)[1])
    return title[:_MAX_TITLE_CHARS], clean_text("\n\n".join(blocks))


#: Fewest second-level headings for a Markdown file to be read as one document per heading.
MIN_SECTIONS = 2


def markdown_sections(markdown: str) -> list[tuple[str, str, str]]:
    """A Markdown file as one document per second-level heading, when it has several.

    A user's notes with "## Wind power in Iowa" and "## Fossil fuels in Iowa"
    hold two subjects a report can give a section each: each heading's part
    becomes a document titled by the heading (the part before the first one
    keeps the file's title), so the planner sees the headings as themes.

    Args:
        markdown: The Markdown source, decoded.

    Returns:
        ``(title, text, anchor)`` per part (``anchor`` is ``""`` for the
        opening part, else the heading's slug); ``[]`` when the file has fewer
        than :data:`MIN_SECTIONS` second-level headings (read whole, as
        :func:`markdown_to_text` does) or is too large for the parser.
    """
    body = _FRONT_MATTER_RE.sub("", markdown, count=1)
    if len(body) > _MARKDOWN_PARSER_LIMIT:
        return []
    starts = [t.map[0] for t in _markdown_parser().parse(body) if t.type == "heading_open" and t.tag == "h2" and t.map]
    if len(starts) < MIN_SECTIONS:
        return []
    lines = body.splitlines(keepends=True)
    bounds = [0, *starts, len(lines)]
    parts = []
    for first, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
        title, text = markdown_to_text("".join(lines[a:b]))
        if not text or text.strip() == title.strip():  # a heading with nothing under it
            continue
        anchor = "" if first == 0 and a not in starts else re.sub(r"[^\w]+", "-", title.casefold()).strip("-")
        parts.append((title, text, anchor))
    return parts if len(parts) >= MIN_SECTIONS else []


# --------------------------------------------------------------------------- PDF


class _NotPdfError(Exception):
    pass


def _pdf_to_text(data: bytes) -> tuple[str, str]:
    """Extract the metadata title and text of a PDF (via ``pypdf``).

    Raises:
        _NotPdfError: The bytes are not a readable PDF (with a reason).
    """
    import pypdf
    from pypdf.errors import FileNotDecryptedError, PyPdfError

    if b"%PDF-" not in data[:1024]:
        raise _NotPdfError("not a valid PDF")
    with warnings.catch_warnings():
        # Broken PDFs make pypdf warn; they are data problems, not ours.
        warnings.simplefilter("ignore")
        try:
            reader = pypdf.PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not reader.decrypt(""):
                raise _NotPdfError("encrypted PDF")
            title = ""
            try:
                meta = reader.metadata
                if meta is not None and isinstance(meta.title, str):
                    title = meta.title
            except Exception:  # noqa: BLE001 - metadata is optional
                title = ""
            pages = []
            for page in reader.pages:
                try:
                    pages.append(page.extract_text() or "")
                except Exception:  # noqa: BLE001 - one bad page must not lose the rest
                    logger.debug("pdf page unreadable", exc_info=True)
        except FileNotDecryptedError as exc:
            raise _NotPdfError("encrypted PDF") from exc
        except _NotPdfError:
            raise
        except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError,
                RecursionError, OSError) as exc:  # fmt: skip
            raise _NotPdfError("not a valid PDF") from exc
    return clean_text(title)[:_MAX_TITLE_CHARS], clean_text("\n\n".join(pages))


# --------------------------------------------------------------------------- loading


#: Longest first line of a PDF taken as its title when the PDF's metadata has none (words).
_TITLE_LINE_WORDS = 12


def _first_line_title(text: str) -> str:
    """A PDF's first line as its title, when it reads as one (short, no closing full stop); else ``""``."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first or len(first.split()) > _TITLE_LINE_WORDS or first.endswith((".", ":", ";", ",")):
        return ""
    return first[:_MAX_TITLE_CHARS]


#: How the source id of a document of the user's own folders starts (the encyclopedia's start "wiki").
LOCAL_PREFIX = "local:"


def is_local(source_id: str) -> bool:
    """Whether a source id is of a document in the user's own folders (``--corpus``), not the encyclopedia's."""
    return source_id.startswith(LOCAL_PREFIX)


def _source_id(path: Path) -> str:
    digest = hashlib.sha1(path.as_posix().encode("utf-8", "surrogatepass")).hexdigest()
    return f"{LOCAL_PREFIX}{digest[:16]}"


def _read_one(path: Path) -> tuple[str, str]:
    """Return (title, text) of one file; raises _NotPdfError or OSError."""
    data = path.read_bytes()
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _pdf_to_text(data)
    text = _decode(data)
    if suffix in (".html", ".htm"):
        return html_to_text(text)
    if suffix in (".md", ".markdown"):
        return markdown_to_text(text)
    return "", clean_text(text)


def load_local_documents(folder: Path) -> LocalLoad:
    """Read every supported file under a folder, recursively.

    Reads ``.md``, ``.markdown``, ``.txt``, ``.html``, ``.htm`` and ``.pdf``
    files (hidden files and folders excepted) in path order. A Markdown
    file with several second-level headings gives one document per heading
    (:func:`markdown_sections`; id suffixed ``-<n>``, URL with the heading's
    anchor). A folder with none of them but with tables (``.csv``, ``.tsv``,
    ``.xlsx``, ``.json`` records) gives one document per table, its rows read
    aloud (:func:`reportgen.sources.tables.table_documents`). Each document
    gets the file's ``file://`` URI as URL, ``local:<16 hex of SHA-1 of its
    absolute path>`` as id (unique across several corpus folders), corpus
    ``"local"`` and a title from its first heading, ``<title>``, PDF metadata,
    a PDF's short first line, or else the file name stem.

    Args:
        folder: The corpus folder.

    Returns:
        The documents and the skipped files with their reasons: over
        :data:`MAX_FILE_BYTES`, unreadable, not a valid PDF, empty after
        cleaning, or a symlink leaving the folder.

    Raises:
        reportgen.errors.InputError: The folder does not exist, is not a
            folder, or yields no usable document nor table.
    """
    root = _check_folder(folder)
    documents: list[Document] = []
    skipped: list[SkippedFile] = []
    seen: set[Path] = set()
    for path in walk_corpus(root, root, skipped):
        real = path.resolve()
        if real in seen:
            continue  # a symlink to a file already read
        seen.add(real)
        try:
            size = path.stat().st_size
        except OSError as exc:
            skipped.append(SkippedFile(path=path, reason=f"cannot be read ({exc.strerror or exc})"))
            continue
        if size > MAX_FILE_BYTES:
            skipped.append(
                SkippedFile(
                    path=path,
                    reason=f"larger than {MAX_FILE_BYTES >> 20} MB ({size / 2**20:.1f} MB)",
                )
            )
            continue
        try:
            title, text = _read_one(path)
        except _NotPdfError as exc:
            skipped.append(SkippedFile(path=path, reason=str(exc)))
            continue
        except OSError as exc:
            skipped.append(SkippedFile(path=path, reason=f"cannot be read ({exc.strerror or exc})"))
            continue
        if not text:
            skipped.append(SkippedFile(path=path, reason="empty"))
            continue
        parts = markdown_sections(_decode(path.read_bytes())) if path.suffix.lower() in (".md", ".markdown") else []
        if parts:  # one document per heading, each citable by its anchor
            file_title = title or clean_text(path.stem) or "untitled"
            for n, (part_title, part_text, anchor) in enumerate(parts):
                documents.append(Document(
                    source_id=f"{_source_id(path)}-{n}", title=part_title or file_title,
                    url=f"{path.as_uri()}#{anchor}" if anchor else path.as_uri(), text=part_text, corpus="local",
                ))
            continue
        if not title and path.suffix.lower() == ".pdf":
            title = _first_line_title(text)
        documents.append(
            Document(
                source_id=_source_id(path),
                title=title or clean_text(path.stem) or "untitled",
                url=path.as_uri(),
                text=text,
                corpus="local",
            )
        )
    if not documents:  # a folder of tables only: its tables are the text to describe
        from reportgen.sources.tables import table_documents  # tables reads files by this module's rules

        documents, unread = table_documents(root)
        skipped += [SkippedFile(path=root / rel, reason=reason) for rel, reason in unread]
    for item in skipped:
        logger.info("corpus file skipped: %s: %s", item.path, item.reason)
    if not documents:
        detail = f" ({len(skipped)} skipped: " + ", ".join(
            sorted({s.reason for s in skipped})
        ) + ")" if skipped else ""
        raise InputError(
            f"corpus folder {folder} holds no readable .md, .txt, .html or .pdf files "
            f"and no table (.csv, .tsv, .xlsx, .json){detail}"
        )
    return LocalLoad(documents=documents, skipped=skipped)
