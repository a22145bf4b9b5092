"""The plot agent's tools: numbers found in source text → a chart spec → an SVG.

The pipeline is three pure steps, each usable alone::

    facts = extract_facts(passages, lang="en")   # NumericFact per quantity
    spec = propose_chart(facts, subject)          # ChartSpec, or None → ACP 605
    svg = draw_svg(spec)                          # standalone, scalable SVG text

When no two numbers are comparable, ``propose_timeline(passages, subject,
keywords, lang)`` charts the dated events of the passages instead (kind
``"timeline"``, one point per year, each quoting its sentence).

The invariant they keep: a chart never shows a number that is not in a cited
source (every point's ``raw`` text is a substring of its quoted sentence, and
that sentence of the passage it came from).

Names are imported on first use (:func:`reportgen._lazy.lazy_exports`):
``reportgen.charts.numbers`` and ``.spec`` do not load matplotlib; only
drawing does (issue 15: start-up).
"""

from __future__ import annotations

import typing as _typing

from reportgen._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from reportgen.charts.draw import draw_svg
    from reportgen.charts.numbers import NumericFact, extract_facts, parse_number
    from reportgen.charts.spec import ChartPoint, ChartSpec, caption, propose_chart
    from reportgen.charts.timeline import propose_timeline

__all__ = [
    "ChartPoint",
    "ChartSpec",
    "NumericFact",
    "caption",
    "draw_svg",
    "extract_facts",
    "parse_number",
    "propose_chart",
    "propose_timeline",
]

_EXPORTS: dict[str, str] = {
    "ChartPoint": "reportgen.charts.spec",
    "ChartSpec": "reportgen.charts.spec",
    "NumericFact": "reportgen.charts.numbers",
    "caption": "reportgen.charts.spec",
    "draw_svg": "reportgen.charts.draw",
    "extract_facts": "reportgen.charts.numbers",
    "parse_number": "reportgen.charts.numbers",
    "propose_chart": "reportgen.charts.spec",
    "propose_timeline": "reportgen.charts.timeline",
}

__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS)
