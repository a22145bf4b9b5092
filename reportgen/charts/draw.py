"""Drawing a :class:`~reportgen.charts.spec.ChartSpec` as a standalone SVG.

Only matplotlib's object API is used (``Figure`` + ``FigureCanvasSVG``):
``pyplot`` keeps global state and is not thread-safe, and charts are drawn
from worker threads. matplotlib's rcParams are global too, so each drawing
runs under one module lock with its settings applied by ``rc_context``.

The SVG is made to be inlined in HTML and PDF:

* text stays text (``svg.fonttype: none``): each label is one ``<text>``
  element naming :data:`FONT_CANDIDATES` that matplotlib found, the same
  families the report's body uses (``templates/base.css``), so the PDF
  renderer lays it out with the fonts it already embeds for the page — one
  font set per document, selectable and searchable text in the PDF, and an
  SVG about a quarter the size of one with a path per glyph (which
  WeasyPrint spent about 40 % of a 32-page render transforming; issue 15,
  README "Performance"). Latin, Greek and Cyrillic come from Noto Sans
  (DejaVu Sans as a fallback), CJK and Arabic/Hebrew/Indic scripts from Noto
  when installed; characters no installed font covers are replaced by "□"
  rather than left as missing glyphs;
* the only numbers shown are the sources' own: value labels print each
  point's ``raw`` text, line charts label the x axis with the sources' years,
  and the y axis carries its label and unit but no tick numbers;
* output is deterministic (fixed ``svg.hashsalt``, no date or creator
  metadata) and has no external references (no XML prolog, DOCTYPE or
  comment; every ``href``/``url()`` points inside the document);
* the root element keeps its ``viewBox`` and gets ``width="100%"`` and no
  height, so the page can scale it.
"""

from __future__ import annotations

import io
import re
import textwrap
import threading
import unicodedata
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast
from xml.sax.saxutils import escape, quoteattr

import matplotlib
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

from reportgen.charts.spec import ChartSpec
from reportgen.errors import RenderError

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType  # the Literal of rcParams keys; annotations only

__all__ = ["FONT_CANDIDATES", "draw_bar", "draw_line", "draw_svg", "draw_timeline"]

#: Font families tried in order; only those matplotlib can find are used.
#: Noto Sans first, as in the templates' ``--font-body``, so chart text and
#: body text share embedded fonts; DejaVu Sans covers what Noto Sans lacks
#: (and is matplotlib's own default, so a family always exists).
FONT_CANDIDATES: tuple[str, ...] = (
    "Noto Sans",
    "DejaVu Sans",
    "Noto Sans CJK JP",
    "Noto Sans Arabic",
    "Noto Sans Hebrew",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
)

_FIGSIZE = (6.4, 3.6)  # inches
_BAR_COLOR = "#1d5fa0"
_INK = "#1f2328"
_MUTED = "#6b7280"
_HASH_SALT = "reportgen-charts"
_REPLACEMENT = "\u25a1"  # □
#: Held while matplotlib draws: ``rc_context`` changes process-wide settings,
#: so drawings (charts here, the appendix in :mod:`reportgen.render.appendix`)
#: run one at a time.
DRAW_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _families() -> tuple[str, ...]:
    """The candidate families matplotlib knows about (never empty)."""
    known = {entry.name for entry in font_manager.fontManager.ttflist}
    found = tuple(name for name in FONT_CANDIDATES if name in known)
    return found or ("DejaVu Sans",)


@lru_cache(maxsize=1)
def _coverage() -> frozenset[int]:
    """Code points at least one of :func:`_families` has a glyph for."""
    points: set[int] = set()
    for family in _families():
        try:
            path = font_manager.findfont(
                font_manager.FontProperties(family=family), fallback_to_default=False
            )
            points.update(FT2Font(path).get_charmap())
        except (ValueError, RuntimeError, OSError):
            continue
    return frozenset(points)


def _displayable(text: str) -> str:
    """Drop control characters and replace glyphs no font has by "□"."""
    covered = _coverage()
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch == "\n" or ch == " ":
            out.append(ch)
        elif category.startswith("C") or category in {"Zl", "Zp"}:
            continue
        elif category == "Zs":
            out.append(" " if ord(ch) not in covered else ch)
        elif ord(ch) in covered or not covered:
            out.append(ch)
        else:
            out.append(_REPLACEMENT if 0x25A1 in covered else "?")
    return "".join(out)


def _wrap(text: str, width: int, max_lines: int = 3) -> str:
    lines = textwrap.wrap(_displayable(text), width=max(width, 4)) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: max(width - 1, 1)].rstrip() + "…"
    return "\n".join(lines)


def _style(ax: Axes) -> None:
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.spines["bottom"].set_color(_MUTED)
    # The y axis is labelled with its unit but carries no tick numbers: every
    # number on the chart is a source's own (the value labels).
    ax.tick_params(axis="y", left=False, labelleft=False)
    ax.tick_params(axis="x", colors=_INK, length=0)


def draw_bar(ax: Axes, spec: ChartSpec) -> None:
    n = len(spec.points)
    xs = list(range(n))
    values = [p.value for p in spec.points]
    ax.bar(xs, values, width=0.6, color=_BAR_COLOR, zorder=2)
    tops: list[float] = []
    for x, p in zip(xs, spec.points, strict=True):
        top = max(p.value, p.high) if p.high is not None else p.value
        if p.high is not None:
            ax.errorbar(
                [x], [p.value], yerr=[[0.0], [p.high - p.value]], fmt="none",
                ecolor=_INK, elinewidth=1.2, capsize=5, zorder=3,
            )
        negative = top < 0
        ax.annotate(
            _displayable(p.raw),
            xy=(x, top),
            xytext=(0, -3 if negative else 3),
            textcoords="offset points",
            ha="center",
            va="top" if negative else "bottom",
            fontsize=8,
            color=_INK,
            annotation_clip=False,
        )
        tops.append(top)
    width = max(8, int(64 / n))
    ax.set_xticks(xs, [_wrap(p.label, width) for p in spec.points], fontsize=8 if n <= 6 else 7)
    ax.set_xlim(-0.6, n - 0.4)
    low, high = min(min(values), 0.0), max(max(tops), 0.0)
    span = (high - low) or 1.0
    ax.set_ylim(low - (0.12 * span if low < 0 else 0.0), high + 0.14 * span)
    ax.axhline(0, color=_MUTED, linewidth=0.8, zorder=1)


def draw_line(ax: Axes, spec: ChartSpec) -> None:
    years = [cast(int, p.year) for p in spec.points]  # ChartSpec checks every line point has a year
    values = [p.value for p in spec.points]
    ax.plot(years, values, color=_BAR_COLOR, marker="o", linewidth=1.8, zorder=2)
    for year, p in zip(years, spec.points, strict=True):
        if p.high is not None:
            ax.vlines(year, p.value, p.high, color=_BAR_COLOR, linewidth=1.2, alpha=0.6)
        top = max(p.value, p.high) if p.high is not None else p.value
        ax.annotate(
            _displayable(p.raw),
            xy=(year, top),
            xytext=(0, 5),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=8,
            color=_INK,
            annotation_clip=False,
        )
    if len(years) <= 12:
        ax.set_xticks(years, [str(y) for y in years], fontsize=8)
    else:
        ax.set_xticks(years[:: max(1, len(years) // 10)])
        ax.tick_params(axis="x", labelsize=8)
    tops = [max(p.value, p.high or p.value) for p in spec.points]
    low, high = min(min(values), 0.0), max(max(tops), 0.0)
    span = (high - low) or 1.0
    ax.set_ylim(low - (0.1 * span if low < 0 else 0.0), high + 0.18 * span)
    pad = max((max(years) - min(years)) * 0.06, 0.5)
    ax.set_xlim(min(years) - pad, max(years) + pad)


#: Width of the drawing area in points (the 6.4 in figure less its margins), for wrapping timeline labels.
_AXES_WIDTH_PT = 430.0


def draw_timeline(ax: Axes, spec: ChartSpec) -> None:
    """Dated events on a horizontal time axis (kind ``"timeline"``).

    Each event's marker sits at its year on a true time scale; its label sits
    in an evenly spaced slot, alternately above and below the axis, joined to
    the marker by a thin line (labels in year order, so the lines never
    cross and no two labels of one side overlap: each gets two slots of
    width). The year is printed as the source writes it (``raw``), bold,
    beside the axis; the label is wrapped to its slot (at most three lines).
    The axis carries no tick numbers: every year shown is a source's own.
    """
    points = spec.points
    n = len(points)
    years = [float(p.value) for p in points]
    step = 1.0 / (n + 0.8)  # n slots plus a margin of 0.9 slot at each end
    margin = 0.9 * step
    slots = [margin + i * step for i in range(n)]
    low, high = min(years), max(years)
    span = (high - low) or 1.0
    marks = [margin + (y - low) / span * (1 - 2 * margin) for y in years]
    fontsize = 8.0 if n <= 5 else 7.5
    width_pt = min(2 * step * 0.92, 0.34) * _AXES_WIDTH_PT
    chars = max(10, int(width_pt / (fontsize * 0.52)))
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlim(0, 1)
    ax.set_ylim(-1, 1)
    ax.plot([margin * 0.4, 1 - margin * 0.4], [0, 0], color=_MUTED, linewidth=1.2, zorder=1)
    ax.scatter(marks, [0] * n, s=28, color=_BAR_COLOR, zorder=3)
    for i, (p, mark, slot) in enumerate(zip(points, marks, slots, strict=True)):
        up = i % 2 == 0
        stem = 0.2 if up else -0.2
        ax.plot([mark, slot], [0, stem], color=_MUTED, linewidth=0.7, zorder=2)
        ax.annotate(_displayable(p.raw), xy=(slot, stem), xytext=(0, 2 if up else -2), textcoords="offset points",
                    ha="center", va="bottom" if up else "top", fontsize=fontsize + 0.5, fontweight="bold",
                    color=_INK, annotation_clip=False)
        ax.annotate(_wrap(p.label, chars), xy=(slot, stem), xytext=(0, 14 if up else -14),
                    textcoords="offset points", ha="center", va="bottom" if up else "top",
                    fontsize=fontsize, color=_INK, linespacing=1.15, annotation_clip=False)


def finish_svg(svg: str, title: str) -> str:
    """Make matplotlib's SVG standalone, scalable and self-contained.

    Drops the XML prolog and DOCTYPE, sets ``width="100%"`` (the page scales
    it; the viewBox stays), adds a ``<title>`` and refuses any reference
    that is not internal (``#id``).

    Raises:
        RenderError: No ``<svg>`` element, or an external reference.
    """
    start = svg.find("<svg")
    if start < 0:
        raise RenderError("matplotlib produced no <svg> element")
    svg = svg[start:]
    head_end = svg.index(">")
    head = svg[:head_end]
    head = re.sub(r'\swidth="[^"]*"', ' width="100%"', head, count=1)
    head = re.sub(r'\sheight="[^"]*"', "", head, count=1)
    head += f' role="img" aria-label={quoteattr(title)}'
    svg = f"{head}>\n <title>{escape(title)}</title>{svg[head_end + 1:]}"
    svg = svg.rstrip() + "\n"
    for ref in re.findall(r'href="([^"]*)"', svg) + re.findall(r"url\(([^)]*)\)", svg):
        if not ref.strip("'\" ").startswith("#"):
            raise RenderError(f"SVG {title!r} holds an external reference: {ref[:60]!r}")
    return svg


def draw_svg(spec: ChartSpec, kinds: Mapping[str, Callable[[Axes, ChartSpec], None]] | None = None) -> str:
    """Draw a chart as a standalone, scalable SVG document.

    Args:
        spec: A validated chart spec (2+ points of one unit).
        kinds: Drawing functions by chart kind (``draw(ax, spec)``), the
            registry's ``chart_kinds``; default the built-in bar, line and
            timeline.

    Returns:
        SVG text starting with ``<svg`` (UTF-8 when encoded), sized
        6.4 × 3.6 in (viewBox 460.8 × 259.2 pt) and scaled by the page
        (``width="100%"``, no height). Identical specs give identical text.

    Raises:
        reportgen.errors.RenderError: matplotlib produced something that is
            not a self-contained SVG (never expected).

    Thread-safety: drawings are serialised by a module lock, because
    matplotlib's rcParams (fonts, SVG options) are process-wide.
    """
    rc: dict[RcKeyType, Any] = {
        "svg.fonttype": "none",
        "svg.hashsalt": _HASH_SALT,
        "font.family": list(_families()),
        "font.size": 9,
        "text.parse_math": False,
        "axes.unicode_minus": False,
        "axes.titlesize": 10,
        "axes.labelsize": 9,
        "axes.labelcolor": _INK,
        "text.color": _INK,
    }
    with DRAW_LOCK, matplotlib.rc_context(rc):
        fig = Figure(figsize=_FIGSIZE, layout="constrained")
        FigureCanvasSVG(fig)
        ax = fig.add_subplot()
        _style(ax)
        draw = (kinds or {}).get(spec.kind) or {"bar": draw_bar, "line": draw_line,
                                                 "timeline": draw_timeline}.get(spec.kind)
        if draw is None:
            raise RenderError(f"no chart kind {spec.kind!r} is registered")
        draw(ax, spec)
        ax.set_title(_wrap(spec.title, 80, 2), loc="left", color=_INK)
        ax.set_ylabel(_wrap(spec.y_label, 36, 2))
        if spec.x_label:
            ax.set_xlabel(_wrap(spec.x_label, 60, 1))
        buffer = io.BytesIO()
        fig.savefig(
            buffer,
            format="svg",
            metadata={"Date": None, "Creator": None, "Type": None, "Format": None},
        )
    return finish_svg(buffer.getvalue().decode("utf-8"), spec.title)
