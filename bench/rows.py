"""One line of the benchmark table: a figure, its same-run reference, and a target.

The machines are shared and noisy, so a figure is never shown alone: each
:class:`Row` carries the reference it was measured against *in the same run*
(the critical path, the level-by-level baseline, Chromium, ...) and the ratio
between the two. A :class:`Target` then says PASS or MISS, and by how much.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = ["Row", "Target"]


@dataclass(frozen=True)
class Target:
    """A benchmark goal: ``on`` (the ratio or the value) ``op`` ``bound``.

    Attributes:
        op: ``"<="`` (at most) or ``">="`` (at least).
        bound: The limit.
        on: Which figure of the row is judged: ``"ratio"`` or ``"value"``.
        unit: Printed after ``bound`` (``"×"`` for ratios).
    """

    op: Literal["<=", ">="]
    bound: float
    on: Literal["ratio", "value"] = "ratio"
    unit: str = "×"

    def label(self) -> str:
        """E.g. ``"≤ 1.10×"`` or ``"≤ 15 s"``."""
        sign = "≤" if self.op == "<=" else "≥"
        unit = self.unit if self.unit == "×" else f" {self.unit}"
        return f"{sign} {self.bound:g}{unit}"

    def check(self, figure: float) -> tuple[bool, float]:
        """Return ``(passed, margin)``; ``margin`` is how far inside (+) or outside (−) the bound, relative."""
        if self.op == "<=":
            return figure <= self.bound, (self.bound - figure) / self.bound
        return figure >= self.bound, (figure - self.bound) / self.bound


@dataclass
class Row:
    """One measured (or not yet measurable) figure.

    Attributes:
        group: The benchmark it belongs to (``"scheduling"``, ``"overhead"``, ...).
        name: What is measured, for people.
        value: The figure, in ``unit``; ``None`` when not measured.
        unit: Unit of ``value`` and ``reference`` (``"s"``, ``"ms/task"``, ``"MiB"``).
        reference: The same-run reference figure, in ``unit``.
        reference_name: What the reference is (``"critical path"``).
        ratio: ``value / reference`` — or, for speed-ups, ``reference / value``.
        ratio_name: What the ratio means (``"makespan / critical path"``).
        target: The goal, when there is one.
        note: Why it missed, or why it is not measured, or how to read it.
        status: ``"measured"``, ``"not measured"`` (a hook waiting for its
            module), ``"unavailable"`` (a tool is missing) or ``"error"``.
        details: Raw figures for ``results.json`` (not printed).
    """

    group: str
    name: str
    value: float | None = None
    unit: str = ""
    reference: float | None = None
    reference_name: str = ""
    ratio: float | None = None
    ratio_name: str = ""
    target: Target | None = None
    note: str = ""
    status: Literal["measured", "not measured", "unavailable", "error"] = "measured"
    details: dict[str, Any] = field(default_factory=dict)

    def verdict(self) -> tuple[str, float | None]:
        """``("PASS" | "MISS" | "", margin)`` against :attr:`target`.

        ``margin`` is relative to the bound: +0.04 is 4 % inside it, −0.12 is
        12 % outside. Rows without a target or without a figure have no verdict.
        """
        if self.target is None or self.status != "measured":
            return "", None
        figure = self.ratio if self.target.on == "ratio" else self.value
        if figure is None or not math.isfinite(figure):
            return "", None
        passed, margin = self.target.check(figure)
        return ("PASS" if passed else "MISS"), margin

    def verdict_text(self) -> str:
        """E.g. ``"PASS (4% inside)"``, ``"MISS by 12%"`` or ``""``."""
        verdict, margin = self.verdict()
        if not verdict or margin is None:
            return ""
        if verdict == "PASS":
            return f"PASS ({abs(margin):.0%} inside)"
        return f"MISS by {abs(margin):.0%}"

    def to_json(self) -> dict[str, Any]:
        """The row as plain JSON types, with its verdict."""
        data = asdict(self)
        data["target"] = None if self.target is None else {**asdict(self.target), "label": self.target.label()}
        verdict, margin = self.verdict()
        data["verdict"] = verdict or None
        data["margin"] = None if margin is None else round(margin, 4)
        return data
