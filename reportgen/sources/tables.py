"""Tables in the user's own documents, cell by cell, for charts of real data.

:func:`load_tables` walks a corpus folder and reads every table it can find:
CSV and TSV files, every sheet of an XLSX workbook, JSON lists of records,
HTML ``<table>`` elements, Markdown pipe tables and the tables pdfplumber
finds in a PDF. Each becomes a :class:`DataTable` of :class:`Cell` objects
that keep the text exactly as printed (stripped, control characters removed)
and where it stands (data row, column, and for a workbook the A1 reference).
:func:`find_series` then picks the table and numeric column that match a
chart's subject and returns a :class:`Series` whose every point carries the
two cells it was read from::

    tables, skipped = load_tables(Path("~/reports/data").expanduser())
    series = find_series(tables, "Hydropower", ["capacity"], lang="en")
    if series:                     # None → no honest chart from these files
        text = series.table.as_text()
        assert all(p.cell.text in text for p in series.points)

Files are data: nothing named in a file is ever fetched (HTML is parsed with
the network off, PDFs and workbooks are read locally only), one unreadable
file is reported in the ``skipped`` list instead of raising, and every path
in the results is relative to the corpus folder.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import math
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from reportgen.agents.ranking import mentions, terms
from reportgen.blueprint.relevance import Relatedness
from reportgen.charts.numbers import parse_number
from reportgen.sources.local import _DATA_SUFFIXES, SkippedFile, is_inside, walk_corpus
from reportgen.sources.models import Document
from reportgen.sources.text import _ANSI_RE, clean_text

__all__ = [
    "Cell",
    "DataTable",
    "MAX_FILES",
    "MAX_POINTS",
    "MAX_TABLE_BYTES",
    "Series",
    "SeriesPoint",
    "TABLE_SUFFIXES",
    "DATA_SUFFIXES",
    "TEXT_ROWS",
    "find_series",
    "load_tables",
    "row_sentence",
    "table_documents",
]

logger = logging.getLogger(__name__)

#: File name suffixes read for tables (compared in lower case).
TABLE_SUFFIXES: frozenset[str] = frozenset(
    {".csv", ".tsv", ".xlsx", ".json", ".html", ".htm", ".md", ".markdown", ".pdf"}
)
#: Most files looked at in one folder; the rest are reported as skipped.
MAX_FILES = 2000
#: Largest file read, in bytes (20 MB).
MAX_TABLE_BYTES = 20 * 1024 * 1024
#: Most points in a :class:`Series` (more do not read as a bar chart).
MAX_POINTS = 12

#: Most data rows and columns kept per table; larger tables are cut.
_MAX_ROWS = 5000
_MAX_COLUMNS = 200
#: Most rows scanned in one worksheet (a sheet can claim a million empty rows).
_MAX_SCAN_ROWS = 100_000
#: Most uncompressed bytes of an XLSX archive (a zip bomb stops here).
_MAX_XLSX_UNZIPPED = 200 * 1024 * 1024
#: Most PDF pages searched for tables.
_MAX_PDF_PAGES = 100
#: Characters of a CSV given to :class:`csv.Sniffer` (its regexes are slow on long lines).
_SNIFF_CHARS = 16_384

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_UNIT_RE = re.compile(r"[(\[]\s*([^()\[\]]{1,20}?)\s*[)\]]\s*$")
_YEAR_RE = re.compile(r"\d{4}")
_MD_SEPARATOR_RE = re.compile(r":?-+:?")
_MD_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_HTML_DROP = ("script", "style", "template", "noscript", "iframe", "object", "svg", "math")


class Cell(BaseModel):
    """One cell of a data row.

    Attributes:
        row: 1-based data row (the header row excluded; blank rows not counted).
        column: 1-based column within the table.
        column_name: The header of the column, as printed.
        text: The cell exactly as printed in the file, stripped, control
            characters removed, inner whitespace runs made one space.
        value: The number :func:`~reportgen.charts.numbers.parse_number` reads
            from ``text``, or ``None`` when the cell is not one finite number.
        ref: For a workbook cell, its A1 reference on the sheet (``"B4"``);
            else ``""``.
    """

    row: int
    column: int
    column_name: str
    text: str
    value: float | None = None
    ref: str = ""


class DataTable(BaseModel):
    """A table read from one file of the corpus folder.

    Attributes:
        path: POSIX path of the file relative to the corpus folder, never absolute.
        file_uri: ``file:`` URI of the file, for citation.
        name: Human-readable name: sheet name, table caption, file name or
            ``"table 2"``.
        index: 1-based position of the table in its file (sheets and tables
            too small to keep are counted too).
        columns: Header texts, one per column.
        rows: Data rows, each exactly ``len(columns)`` cells.
        source_id: Stable id, ``"table:" + sha1(path)[:12] + ":<index>"``.
        title: Citation title: ``"installed.csv"`` or ``"report.pdf, table 2"``.
    """

    path: str
    file_uri: str
    name: str
    index: int
    columns: list[str]
    rows: list[list[Cell]]
    source_id: str
    title: str

    def cell_locator(self, cell: Cell) -> str:
        """Say where a cell stands, for people checking a chart against the file.

        Args:
            cell: A cell of this table.

        Returns:
            ``"row 3, column 'Capacity (GW)'"``, with the A1 reference in
            parentheses for a workbook cell (``"row 3, column 'Capacity (GW)' (B4)"``).
        """
        where = f"row {cell.row}, column '{cell.column_name}'"
        return f"{where} ({cell.ref})" if cell.ref else where

    def as_text(self) -> str:
        """Render the table as plain text, the text chart values are verified against.

        Returns:
            A header line ``"col1 | col2 | ..."`` then one line per data row,
            cells exactly as printed, joined with newlines; every cell's
            ``text`` is a substring of it.
        """
        lines = [" | ".join(self.columns)]
        lines.extend(" | ".join(cell.text for cell in row) for row in self.rows)
        return "\n".join(lines)


class SeriesPoint(BaseModel):
    """One point of a :class:`Series`.

    Attributes:
        label: The label cell's text.
        value: The value cell's number.
        cell: The value cell.
        label_cell: The label cell of the same row.
        locator: Where the value cell stands (:meth:`DataTable.cell_locator`).
    """

    label: str
    value: float
    cell: Cell
    label_cell: Cell
    locator: str


class Series(BaseModel):
    """Labels and values read from two columns of one table.

    Attributes:
        table: The table they come from.
        label_column: Header of the label column.
        value_column: Header of the value column.
        unit: Unit from the value column's header (``"Capacity (GW)"`` →
            ``"GW"``), ``"%"`` when every value is printed with ``%``, else ``""``.
        points: 2 to :data:`MAX_POINTS` points in table order.
        time: Whether the labels are years (every label 4 digits, 1800..2100).
    """

    table: DataTable
    label_column: str
    value_column: str
    unit: str = ""
    points: list[SeriesPoint] = Field(default_factory=list)
    time: bool = False


# --------------------------------------------------------------------------- cells


class _Unreadable(Exception):
    """A file that cannot be read; the message is the reason shown to people."""


def _strip_controls(text: str) -> str:
    """Remove escape sequences and C0 controls (tab, newline, CR kept) before parsing."""
    return _CONTROL_RE.sub("", _ANSI_RE.sub("", text))


def _clean_cell(text: str) -> str:
    return " ".join(clean_text(text).split())


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _column_letters(n: int) -> str:
    letters = ""
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


#: One raw cell: its text, its number when the format gives one (XLSX, JSON),
#: and its A1 reference.
_Raw = tuple[str, float | None, str]


def _build(
    raw_rows: Sequence[Sequence[_Raw]], *, rel: str, uri: str, name: str, index: int, title: str, lang: str
) -> DataTable | None:
    """Make a table of raw rows (first non-blank row = header); ``None`` under 2 data rows or 2 columns."""
    rows = [[(_clean_cell(t), v, r) for t, v, r in row[:_MAX_COLUMNS]] for row in raw_rows]
    rows = [row for row in rows if any(t for t, _, _ in row)]
    if len(rows) < 3:  # a header and at least two data rows
        return None
    header = [t for t, _, _ in rows[0]]
    while header and not header[-1]:
        header.pop()
    width = len(header)
    if width < 2:
        return None
    columns = [h or f"column {i}" for i, h in enumerate(header, 1)]
    cells: list[list[Cell]] = []
    for r, row in enumerate(rows[1 : _MAX_ROWS + 1], 1):
        padded = list(row[:width]) + [("", None, "")] * (width - len(row))
        line = []
        for c, (text, number, ref) in enumerate(padded, 1):
            value = number if number is not None else parse_number(text, lang)
            if value is not None and not math.isfinite(value):
                value = None
            line.append(Cell(row=r, column=c, column_name=columns[c - 1], text=text, value=value, ref=ref))
        cells.append(line)
    digest = hashlib.sha1(rel.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return DataTable(
        path=rel, file_uri=uri, name=name, index=index, columns=columns, rows=cells,
        source_id=f"table:{digest}:{index}", title=title,
    )  # fmt: skip


def _plain(rows: Iterator[Sequence[str]] | Sequence[Sequence[str]]) -> list[list[_Raw]]:
    return [[(t or "", None, "") for t in row] for row in rows]


# --------------------------------------------------------------------------- readers
# Each reader yields (name, raw rows) per table found in the file, in order.

_Found = tuple[str, list[list[_Raw]]]


def _read_delimited(data: bytes, filename: str, tab: bool) -> list[_Found]:
    text = _strip_controls(_decode(data))
    if tab:
        dialect: type[csv.Dialect] | csv.Dialect = csv.excel_tab
    else:
        sample = "\n".join(text[:_SNIFF_CHARS].splitlines()[:20])
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
        except csv.Error:
            dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    rows = []
    try:
        for row in reader:
            rows.append(row)
            if len(rows) > _MAX_ROWS:
                break
    except csv.Error as exc:
        raise _Unreadable(f"malformed CSV ({exc})") from exc
    return [(filename, _plain(rows))]


def _format_number(value: float | int, number_format: str) -> tuple[str, float]:
    if "%" in number_format and isinstance(value, float | int):
        decimals = len(m.group(1)) if (m := re.search(r"\.(0+)", number_format)) else 0
        shown = round(value * 100, decimals)
        return f"{shown:.{decimals}f}%", shown
    if isinstance(value, int):
        return str(value), float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value)), value
    return format(Decimal(repr(value)), "f"), value


def _xlsx_cell(value: object, number_format: str) -> tuple[str, float | None]:
    if value is None:
        return "", None
    if isinstance(value, bool):
        return ("TRUE" if value else "FALSE"), None
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return str(value), None
        return _format_number(value, number_format or "")
    if isinstance(value, datetime):
        return (value.date().isoformat() if value.time() == time() else value.isoformat(sep=" ")), None
    if isinstance(value, date | time):
        return value.isoformat(), None
    return str(value), None


def _read_xlsx(path: Path) -> list[_Found]:
    import openpyxl

    try:
        with zipfile.ZipFile(path) as archive:
            if sum(info.file_size for info in archive.infolist()) > _MAX_XLSX_UNZIPPED:
                raise _Unreadable("workbook too large once unzipped")
    except zipfile.BadZipFile as exc:
        raise _Unreadable("not an XLSX workbook") from exc
    found: list[_Found] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            for sheet in workbook.worksheets:
                rows: list[list[_Raw]] = []
                first_col: int | None = None
                for r, row in enumerate(sheet.iter_rows(min_row=1, min_col=1), 1):
                    if r > _MAX_SCAN_ROWS or len(rows) > _MAX_ROWS:
                        break
                    line: list[_Raw] = []
                    for c, cell in enumerate(row[:_MAX_COLUMNS], 1):
                        text, number = _xlsx_cell(getattr(cell, "value", None), getattr(cell, "number_format", ""))
                        line.append((text, number, f"{_column_letters(c)}{r}"))
                    filled = [i for i, (t, _, _) in enumerate(line) if t.strip()]
                    if filled:
                        first_col = min(filled[0], first_col if first_col is not None else filled[0])
                        rows.append(line)
                start = first_col or 0
                found.append((str(sheet.title), [line[start:] for line in rows]))
        finally:
            workbook.close()
    return found


class _Literal(str):
    """A JSON number literal, kept as printed (``1.20`` stays ``"1.20"``)."""


def _json_cell(value: object) -> _Raw:
    if isinstance(value, _Literal):
        number = float(value)
        return str(value), (number if math.isfinite(number) else None), ""
    if value is None:
        return "", None, ""
    if isinstance(value, bool):
        return ("true" if value else "false"), None, ""
    if isinstance(value, str):
        return value, None, ""
    return json.dumps(value, ensure_ascii=False, default=str)[:500], None, ""


def _read_json(data: bytes, filename: str) -> Iterator[_Found]:
    try:
        top = json.loads(_decode(data), parse_float=_Literal, parse_int=_Literal, parse_constant=_Literal)
    except (ValueError, RecursionError) as exc:
        raise _Unreadable("invalid JSON") from exc
    if isinstance(top, dict):
        lists = [v for v in top.values() if isinstance(v, list)]
        keyed = next((top[k] for k in ("records", "data") if isinstance(top.get(k), list)), None)
        top = keyed if keyed is not None else lists[0] if len(top) == 1 and lists else None
    if not isinstance(top, list):
        return
    records = [item for item in top[: _MAX_ROWS + 1] if isinstance(item, dict)]
    if records:
        columns: dict[str, None] = {}
        for record in records:
            columns.update(dict.fromkeys(str(k) for k in record))
        keys = list(columns)[:_MAX_COLUMNS]
        rows: list[list[_Raw]] = [[(k, None, "") for k in keys]]
        rows += [[_json_cell(r.get(k)) for k in keys] for r in records]
        yield filename, rows
        return
    lists_of_lists = [item for item in top[: _MAX_ROWS + 1] if isinstance(item, list)]
    if lists_of_lists:
        yield filename, [[_json_cell(v) for v in row] for row in lists_of_lists]


def _read_html(data: bytes) -> Iterator[_Found]:
    import lxml.html

    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", _decode(data))
    if not text.strip():
        return
    parser = lxml.html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True)
    root = lxml.html.document_fromstring(text, parser=parser)
    for bad in list(root.iter(*_HTML_DROP)):
        bad.drop_tree()
    for n, table in enumerate(root.iter("table"), 1):
        caption = table.find("caption")
        name = _clean_cell(caption.text_content()) if caption is not None else ""
        rows = []
        for tr in table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr"):
            cells = tr.xpath("./th | ./td")
            line = []
            for cell in cells:
                for br in cell.iter("br"):
                    br.tail = " " + (br.tail or "")
                line.append(cell.text_content())
                span = cell.get("colspan", "1")
                line.extend([""] * (min(int(span), 50) - 1 if span.isdigit() and int(span) > 1 else 0))
            rows.append((line, bool(cells) and all(c.tag == "th" for c in cells)))
        heads = [i for i, (_, is_head) in enumerate(rows) if is_head]
        start = heads[0] if heads else 0
        yield name or f"table {n}", _plain(line for line, _ in rows[start:])


def _split_pipes(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [cell.replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", s)]


def _read_markdown(data: bytes) -> Iterator[_Found]:
    text = _strip_controls(_decode(data))
    blocks: list[list[list[str]]] = []
    current: list[list[str]] = []
    fenced = False
    for line in text.splitlines():
        if _MD_FENCE_RE.match(line):
            fenced = not fenced
        cells = _split_pipes(line) if not fenced and "|" in line else []
        # a row opens a table with 2+ cells; inside one, "| 2023 |" is a short row
        if len(cells) >= 2 or (cells and current and line.strip().startswith("|")):
            if not all(_MD_SEPARATOR_RE.fullmatch(c.strip()) for c in cells):
                current.append(cells)
            continue
        if current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    # a lone line with a pipe is prose, not a table: it takes no table number
    for n, block in enumerate((b for b in blocks if len(b) >= 2), 1):
        yield f"table {n}", _plain(block)


def _read_pdf(path: Path) -> list[_Found]:
    import pdfplumber

    with open(path, "rb") as handle:
        if b"%PDF-" not in handle.read(1024):
            raise _Unreadable("not a PDF")
    found: list[_Found] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages[:_MAX_PDF_PAGES]:
                for table in page.extract_tables() or _borderless_tables(page):
                    name = f"table {len(found) + 1}"
                    found.append((name, _plain([[c or "" for c in row] for row in table])))
    return found


#: pdfplumber settings that find a table by the alignment of its words (no ruling lines).
_TEXT_TABLE = {"vertical_strategy": "text", "horizontal_strategy": "text"}


def _borderless_tables(page: Any) -> list[list[list[str | None]]]:
    """Tables drawn without ruling lines (a browser's or a word processor's plain ``<table>``).

    pdfplumber's text strategy finds them by word alignment, but cuts a header
    wider than its column ("Net generation 2017 (MWh)" over "29,329") at the
    column's right edge; the columns are read again with the last one
    reaching to the right end of the widest word in the table's rows. Kept
    only with a column of numbers (at least half of its cells under the header).
    """
    out = []
    for found in page.find_tables(_TEXT_TABLE):
        x0, top, _, bottom = found.bbox
        lefts = sorted({round(cell[0], 1) for cell in found.cells})
        words = [w for w in page.extract_words() if w["top"] >= top - 1 and w["bottom"] <= bottom + 1]
        if len(lefts) < 2 or not words:
            continue
        right = max(w["x1"] for w in words) + 1
        region = page.crop((max(0, x0 - 1), max(0, top - 1), min(page.width, right + 1), min(page.height, bottom + 1)))
        rows = region.extract_table({"vertical_strategy": "explicit", "horizontal_strategy": "text",
                                     "explicit_vertical_lines": [*lefts, right]})
        rows = [r for r in rows or [] if any((c or "").strip() for c in r)]
        body = rows[1:]
        numeric = any(
            2 * sum(1 for r in body if parse_number(r[c] or "") is not None) >= len(body) > 0
            for c in range(1, len(rows[0]) if rows else 0)
        )
        if numeric:
            out.append(rows)
    return out


# --------------------------------------------------------------------------- walking


def _walk(root: Path, skipped: list[tuple[str, str]], suffixes: frozenset[str]) -> Iterator[Path]:
    """The table files of ``root``, walked by the corpus rule (:func:`~reportgen.sources.local.walk_corpus`)."""
    outside: list[SkippedFile] = []
    yield from walk_corpus(root, root, outside, suffixes)
    skipped.extend((s.path.relative_to(root).as_posix(), "symlink points outside the folder") for s in outside)


def _read_file(path: Path, rel: str, lang: str) -> list[DataTable]:
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        found: Iterable[_Found] = _read_xlsx(path)
    elif suffix == ".pdf":
        found = _read_pdf(path)
    else:
        data = path.read_bytes()
        if suffix in (".csv", ".tsv"):
            found = _read_delimited(data, path.name, tab=suffix == ".tsv")
        elif suffix == ".json":
            found = _read_json(data, path.name)
        elif suffix in (".html", ".htm"):
            found = _read_html(data)
        else:
            found = _read_markdown(data)
    single = suffix in (".csv", ".tsv", ".json")
    uri = path.absolute().as_uri()
    tables = []
    for index, (name, rows) in enumerate(found, 1):
        title = path.name if single else f"{path.name}, {name}"
        table = _build(rows, rel=rel, uri=uri, name=name, index=index, title=title, lang=lang)
        if table is not None:
            tables.append(table)
    return tables


def load_tables(folder: Path, *, lang: str = "en", suffixes: frozenset[str] = TABLE_SUFFIXES
                ) -> tuple[list[DataTable], list[tuple[str, str]]]:
    """Read every table in a folder of documents.

    Walks ``folder`` recursively in path order, ignoring hidden files and
    folders and files of other kinds (see :data:`TABLE_SUFFIXES`); symlinks
    are read only when they resolve inside the folder, symlinked folders are
    never descended. CSV/TSV are decoded as UTF-8 (BOM-aware), else
    Windows-1252, else Latin-1, the CSV dialect guessed by :class:`csv.Sniffer`;
    the first non-blank row of every table is its header. Tables with fewer
    than 2 data rows or 2 columns are left out; at most 5,000 rows and 200
    columns are kept per table.

    Args:
        folder: The corpus folder.
        lang: Language the files write numbers in (``"en"``: ``"1,136"`` is
            1136; ``"fr"``: ``"2,5"`` is 2.5), for :attr:`Cell.value`.
        suffixes: The kinds of file read (default every kind of
            :data:`TABLE_SUFFIXES`).

    Returns:
        The tables, in path order then file order, and ``(relative path,
        reason)`` for every file that could not be read (empty, over 20 MB,
        not a PDF, a symlink leaving the folder, beyond :data:`MAX_FILES`, or
        a parse error). A file that was read but holds no table is in neither.

    Raises:
        NotADirectoryError: ``folder`` is not an existing folder.
    """
    if not Path(folder).is_dir():
        raise NotADirectoryError(f"{folder} is not a folder")
    root = Path(folder).resolve()
    tables: list[DataTable] = []
    skipped: list[tuple[str, str]] = []
    for count, path in enumerate(_walk(root, skipped, suffixes), 1):
        rel = path.relative_to(root).as_posix()
        if count > MAX_FILES:
            skipped.append((rel, f"more than {MAX_FILES} files: this and later files not read"))
            break
        if path.is_symlink() and not is_inside(path, root):
            skipped.append((rel, "symlink points outside the folder"))
            continue
        try:
            size = path.stat().st_size
            if not path.is_file():
                continue
            if size == 0:
                skipped.append((rel, "empty file"))
                continue
            if size > MAX_TABLE_BYTES:
                skipped.append((rel, f"too large ({size:,} bytes, limit {MAX_TABLE_BYTES:,})"))
                continue
            tables.extend(_read_file(path, rel, lang))
        except Exception as exc:  # one bad file never stops the others
            # library messages may hold absolute paths: only our own reasons are shown
            kind = path.suffix.lower().lstrip(".")
            reason = str(exc) if isinstance(exc, _Unreadable) else f"unreadable {kind} file ({type(exc).__name__})"
            skipped.append((rel, f"could not be read: {reason[:200]}"))
            logger.info("table file %s skipped: %s", rel, reason)
    return tables, skipped


# --------------------------------------------------------------------------- series


#: Cells that say "no data": neither text nor number when typing a column.
_MISSING = frozenset({"-", "–", "—", "n/a", "na", "n.a.", "..", "…", "?"})


def _number_like(text: str) -> bool:
    """A cell written as a number even when it has no usable value ("NaN", "inf", "1e400")."""
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def _numeric_share(table: DataTable, column: int) -> tuple[float, int]:
    """Share of a column's filled cells written as numbers, and how many have a value."""
    cells = [row[column] for row in table.rows if row[column].text.lower() not in _MISSING | {""}]
    numeric = sum(1 for cell in cells if cell.value is not None or _number_like(cell.text))
    values = sum(1 for cell in cells if cell.value is not None)
    return (numeric / len(cells) if cells else 0.0), values


def _is_years(cells: Sequence[Cell]) -> bool:
    texts = [c.text for c in cells if c.text]
    return len(texts) >= 2 and all(_YEAR_RE.fullmatch(t) and 1800 <= int(t) <= 2100 for t in texts)


def _hits(words: set[str], wanted: set[str]) -> int:
    return sum(1 for term in wanted if mentions(words, term))


def _unit(column_name: str, cells: Sequence[Cell]) -> str:
    if m := _UNIT_RE.search(column_name):
        return m.group(1)
    texts = [c.text for c in cells if c.value is not None]
    return "%" if texts and all(t.endswith("%") for t in texts) else ""


def find_series(tables: list[DataTable], subject: str, keywords: list[str], lang: str = "en",
                request: str = "") -> Series | None:
    """Pick the table column that best charts ``subject`` and read its points.

    Labels come from the first mostly-text column of a table (filled in at
    least half the rows, fewer than half of its filled cells numbers), else
    from a column of years. Each other
    numeric column (at least half numbers, not years) is scored by the terms
    (:func:`reportgen.agents.ranking.terms`) it shares with the request:
    4 per keyword term and 2 per subject term in its header, 2 and 1 in the
    table's name and title, and up to 3 for label cells naming a term. A
    column counts only when a keyword term (the subject's terms when no
    keyword is given) appears in its header, its table's name/title or its
    labels: an unrelated table gives no chart. Equal scores (a word such as
    "power" shared by a wind table and a solar table) go to the column most
    related to the request (:class:`~reportgen.blueprint.relevance.Relatedness`
    of its header, table name, title and labels to the subject, keywords and
    request), then to the one with more points, then to the earlier one.

    Args:
        tables: Tables from :func:`load_tables`.
        subject: What the chart is about (``"Hydropower in Norway"``).
        keywords: Words the chart must be about (``["capacity"]``); may be empty.
        lang: Language of ``subject`` and ``keywords``, for stopwords.
        request: The report's request (the run's topic), for breaking ties.

    Returns:
        The series, or ``None`` when no column matches or fewer than 2 rows
        hold both a label and a number. At most :data:`MAX_POINTS` points:
        the first rows in table order, the last ones for a time series (the
        most recent years).
    """
    subject_terms = terms(subject, lang) if subject.strip() else set()
    keyword_terms = set().union(*(terms(k, lang) for k in keywords if k.strip()))
    required = keyword_terms or subject_terms
    if not required:
        return None
    candidates: list[tuple[float, Series]] = []
    for table in tables:
        width = len(table.columns)
        shares = [_numeric_share(table, c) for c in range(width)]
        # a label column names most rows (a sparse "Note" column does not)
        filled = [2 * sum(1 for row in table.rows if row[c].text) >= len(table.rows) for c in range(width)]
        label_col = next((c for c in range(width) if filled[c] and shares[c][0] < 0.5), None)
        if label_col is None:
            label_col = next((c for c in range(width) if _is_years([r[c] for r in table.rows])), None)
        if label_col is None:
            continue
        labels = [row[label_col] for row in table.rows]
        time_series = _is_years(labels)
        table_words = terms(f"{table.name} {table.title}", lang)
        label_words = terms(" ".join(c.text for c in labels[:_MAX_ROWS]), lang)
        for c in range(width):
            if c == label_col or shares[c][0] < 0.5 or shares[c][1] < 2:
                continue
            if _is_years([row[c] for row in table.rows]):
                continue
            header_words = terms(table.columns[c], lang)
            if not any(_hits(w, required) for w in (header_words, table_words, label_words)):
                continue
            score = (
                4 * _hits(header_words, keyword_terms) + 2 * _hits(header_words, subject_terms)
                + 2 * _hits(table_words, keyword_terms) + _hits(table_words, subject_terms)
                + min(3, _hits(label_words, keyword_terms | subject_terms))
            )  # fmt: skip
            pairs = [(row[label_col], row[c]) for row in table.rows if row[label_col].text]
            points = [
                SeriesPoint(
                    label=lab.text,
                    value=cell.value,
                    cell=cell,
                    label_cell=lab,
                    locator=table.cell_locator(cell),
                )  # fmt: skip
                for lab, cell in pairs
                if cell.value is not None
            ]
            if len(points) < 2:
                continue
            points = points[-MAX_POINTS:] if time_series else points[:MAX_POINTS]
            series = Series(
                table=table, label_column=table.columns[label_col], value_column=table.columns[c],
                unit=_unit(table.columns[c], [p.cell for p in points]), points=points, time=time_series,
            )  # fmt: skip
            candidates.append((score, series))
    if not candidates:
        return None
    top = max(score for score, _ in candidates)
    tied = [series for score, series in candidates if score == top]
    if len(tied) == 1:
        return tied[0]
    texts = [_column_text(series) for series in tied]
    scorer = Relatedness([subject, " ".join(keywords), request], texts, lang)
    related = [scorer.score(text) for text in texts]
    ranked = sorted(range(len(tied)), key=lambda i: (-related[i], -len(tied[i].points), i))
    return tied[ranked[0]]


def _column_text(series: Series) -> str:
    """What a candidate column is about: its header, its table's name and title, and its labels."""
    labels = " ".join(p.label for p in series.points)
    return f"{series.value_column} {series.table.name} {series.table.title} {labels}"


# --------------------------------------------------------------------------- tables as text

#: Files that hold only data (no running text of their own): in a folder with
#: no text document they are read as text too (:func:`table_documents`).
DATA_SUFFIXES: frozenset[str] = _DATA_SUFFIXES
#: Most rows of one table read as sentences (a longer table is charted and
#: shown, but only its first rows become text to quote).
TEXT_ROWS = 200


def _humane(name: str) -> str:
    """A table's name as a title: ``"iowa-net-generation.csv"`` → ``"Iowa net generation"``."""
    stem = re.sub(r"\.(?:csv|tsv|xlsx|json)$", "", name, flags=re.IGNORECASE)
    words = re.sub(r"[_\-]+", " ", stem).strip()
    return (words[:1].upper() + words[1:]) if words else name


def row_sentence(table: DataTable, row: Sequence[Cell]) -> str:
    """One data row read aloud, with nothing but the file's own header and cell texts.

    ``"Year 2001: Coal net generation (MWh) 35,361; Wind net generation (MWh) 1,437."``:
    the first cell after its column's header, then every other filled cell
    after its header. Every number in it is a cell as printed, so the
    extractive writer may quote it and the chart verifier find its values.

    Args:
        table: The table.
        row: One of its rows.

    Returns:
        The sentence (ending with a full stop), or ``""`` for a row with no filled cell.
    """
    filled = [c for c in row if c.text]
    if not filled:
        return ""
    head, rest = filled[0], filled[1:]
    text = f"{head.column_name} {head.text}"
    if rest:
        text += ": " + "; ".join(f"{c.column_name} {c.text}" for c in rest)
    return text.rstrip(".") + "."


def table_documents(folder: Path, *, lang: str = "en") -> tuple[list[Document], list[tuple[str, str]]]:
    """The data files of a folder (CSV, TSV, XLSX, JSON records) as text documents.

    For a ``--corpus`` folder that holds tables and no text document: each
    table becomes one document (its rows read aloud by :func:`row_sentence`,
    at most :data:`TEXT_ROWS`), titled by its sheet or file name, cited by its
    ``file:`` URI, with the table's own ``source_id``, so the report's
    sections can describe what the tables hold while the data agent charts
    and shows them.

    Args:
        folder: The corpus folder.
        lang: Language the files write numbers in.

    Returns:
        The documents (path order, then file order) and the ``(relative path,
        reason)`` of every file that could not be read.

    Raises:
        NotADirectoryError: ``folder`` is not an existing folder.
    """
    tables, skipped = load_tables(folder, lang=lang, suffixes=DATA_SUFFIXES)
    documents = []
    for table in tables:
        lines = [row_sentence(table, row) for row in table.rows[:TEXT_ROWS]]
        text = "\n".join(line for line in lines if line)
        if not text:
            continue
        name = table.name if table.name != Path(table.path).name else _humane(table.name)
        documents.append(Document(source_id=table.source_id, title=name, url=table.file_uri, text=text,
                                  corpus="local"))
    return documents, skipped
