"""The plot agent's tools: numbers found in source text → a chart spec → an SVG.

The pipeline is three pure steps, each usable alone::

    facts = extract_facts(passages, lang="en")   # NumericFact per quantity
    spec = propose_chart(facts, subject)          # ChartSpec, or None → ACP 605
    svg = draw_svg(spec)                          # standalone, scalable SVG text

The invariant they keep: a chart never shows a number that is not in a cited
source (every point's ``raw`` text is a substring of its quoted sentence, and
that sentence of the passage it came from).
"""

from __future__ import annotations

from reportgen.charts.draw import draw_svg
from reportgen.charts.numbers import NumericFact, extract_facts, parse_number
from reportgen.charts.spec import ChartPoint, ChartSpec, caption, propose_chart

__all__ = [
    "ChartPoint",
    "ChartSpec",
    "NumericFact",
    "caption",
    "draw_svg",
    "extract_facts",
    "parse_number",
    "propose_chart",
]
