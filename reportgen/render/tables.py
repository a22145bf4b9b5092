"""Tables as every renderer shows them: rectangular, numbered, with safe ids.

A :class:`~reportgen.report.Table` is stored as given (see its docstring); a
model or a source's Markdown may produce rows of uneven length or no header.
:func:`table_views` turns the report's tables into :class:`TableView` objects
with the shape fixed the way GitHub Flavored Markdown fixes it (spec 0.29,
section 4.10: "The remainder of the table's rows may vary in the number of
cells. If a number of cells fewer than the number of cells in the header row,
empty cells are inserted. If greater, the excess is ignored"), so HTML, PDF,
Markdown and DOCX all show the same table and none of them can crash on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportgen.report import Report, Table

__all__ = [
    "TableView",
    "VERY_WIDE_COLUMNS",
    "WIDE_COLUMNS",
    "normalise_table",
    "table_views",
]

#: From this many columns a table is set smaller (class ``table-wide``)...
WIDE_COLUMNS = 6
#: ...and from this many smaller still (class ``table-very-wide``).
VERY_WIDE_COLUMNS = 10

_SAFE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


@dataclass(frozen=True, slots=True)
class TableView:
    """A table ready to render: every row has exactly :attr:`columns` cells.

    Attributes:
        id: Unique anchor id (the table's own when safe and free, else ``tbl-<n>``).
        number: 1-based number in reading order.
        section_id: The section it is shown in.
        caption: Plain-text caption.
        header: Column headings (empty when the table has none).
        rows: Body rows.
        columns: Number of columns (0 only when the table is empty).
        citations: Reference numbers of its sources.
        size: ``""``, ``"wide"`` or ``"very-wide"``, from :attr:`columns`.
    """

    id: str
    number: int
    section_id: str
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    columns: int
    citations: tuple[int, ...]

    @property
    def size(self) -> str:
        if self.columns >= VERY_WIDE_COLUMNS:
            return "very-wide"
        if self.columns >= WIDE_COLUMNS:
            return "wide"
        return ""


def normalise_table(table: Table) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int]:
    """Fix a table's shape.

    The header decides the number of columns; a table without one takes the
    widest row's. Short rows are padded with empty cells, long rows cut to the
    column count (GFM), rows with no non-blank cell are dropped.

    Args:
        table: The table as stored.

    Returns:
        ``(header, rows, columns)``; ``header`` is empty when the table has none.
    """
    header = tuple(cell.strip() for cell in table.header)
    if header and not any(header):
        header = ()
    rows = [tuple(cell.strip() for cell in row) for row in table.rows]
    rows = [row for row in rows if any(row)]
    columns = len(header) if header else max((len(row) for row in rows), default=0)
    fixed = tuple(row[:columns] + ("",) * (columns - len(row)) for row in rows)
    return header, fixed, columns


def table_views(
    report: Report, section_ids: list[str], reserved: frozenset[str] = frozenset()
) -> list[TableView]:
    """The report's tables in reading order, normalised and numbered.

    Args:
        report: The report.
        section_ids: Ids of the sections, in reading order. A table naming no
            known section goes to the last one; without sections there are no
            views (as for figures, nothing would hold them).
        reserved: Other anchor ids of the page, which table ids must avoid.

    Returns:
        One view per table. Tables keep their own numbers when all of them
        have distinct positive ones, else they are numbered 1, 2, ... in
        reading order. Ids that are unsafe, empty or taken become ``tbl-<n>``.
    """
    if not section_ids or not report.tables:
        return []
    order = {sid: i for i, sid in enumerate(section_ids)}
    last = section_ids[-1]
    placed = sorted(
        ((order.get(t.section_id, len(section_ids) - 1), i, t) for i, t in enumerate(report.tables)),
        key=lambda item: (item[0], item[1]),
    )
    numbers = [t.number for _, _, t in placed]
    keep_numbers = all(n > 0 for n in numbers) and len(set(numbers)) == len(numbers)
    taken = set(section_ids) | {f.id for f in report.figures} | set(reserved)
    views = []
    for index, (_, _, table) in enumerate(placed, start=1):
        number = table.number if keep_numbers else index
        table_id = table.id if _SAFE_ID.match(table.id) and table.id not in taken else f"tbl-{number}"
        while table_id in taken:
            table_id += "-x"
        taken.add(table_id)
        header, rows, columns = normalise_table(table)
        views.append(TableView(
            id=table_id,
            number=number,
            section_id=table.section_id if table.section_id in order else last,
            caption=table.caption,
            header=header,
            rows=rows,
            columns=columns,
            citations=tuple(table.citations),
        ))
    return views
