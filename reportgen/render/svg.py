"""Checking and rasterising the SVG drawings that exports copy out of the report.

Charts are SVG documents stored in the report model. The HTML and PDF inline
them as ``data:`` URIs (the PDF renderer refuses to fetch anything they
name); the Markdown export writes them as files and the DOCX embeds them
with a PNG fallback. Before either, :func:`check_svg` refuses a drawing
that names anything outside itself, so no export can make a viewer (or
resvg) read a local file or reach the network.
"""

from __future__ import annotations

import re

from reportgen.errors import RenderError

__all__ = ["PNG_WIDTH_PX", "check_svg", "svg_to_png"]

#: PNG fallback width in pixels (about 200 dpi at the DOCX's 6 in).
PNG_WIDTH_PX = 1200


def check_svg(svg: str, what: str) -> None:
    """Refuse an SVG that refers to anything outside itself.

    Args:
        svg: The SVG text.
        what: What to call it in the error (``"figure fig-1"``).

    Raises:
        RenderError: It has a DTD or entity declaration, an ``href`` /
            ``xlink:href`` / ``src`` that is not a ``#fragment``, a
            ``url(...)`` that is not one, or a CSS ``@import``.
    """
    if re.search(r"<!(DOCTYPE|ENTITY)", svg, re.IGNORECASE):
        raise RenderError(f"{what}: the SVG declares a DTD or entities")
    refs = re.findall(r"""(?:href|src)\s*=\s*["']([^"']*)["']""", svg, re.IGNORECASE)
    refs += re.findall(r"url\(\s*([^)]*)\)", svg, re.IGNORECASE)
    for ref in refs:
        if not ref.strip("'\" \t\r\n").startswith("#"):
            raise RenderError(f"{what}: the SVG refers to an outside resource {ref[:80]!r}")
    if "@import" in svg.lower():
        raise RenderError(f"{what}: the SVG imports a stylesheet")


def svg_to_png(svg: str, what: str, width_px: int = PNG_WIDTH_PX) -> bytes:
    """Rasterise a self-contained SVG with resvg (white background).

    Args:
        svg: The SVG text; checked with :func:`check_svg` first.
        what: What to call it in errors.
        width_px: Width of the image; the height keeps the SVG's proportions.

    Returns:
        PNG bytes.

    Raises:
        RenderError: The SVG refers to outside resources or cannot be drawn.
    """
    import resvg_py

    check_svg(svg, what)
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width_px, background="#ffffff"))
    except (ValueError, RuntimeError) as exc:
        raise RenderError(f"{what}: cannot draw the SVG: {exc}") from exc
