"""Child process of the rendering benchmark: ``python -m bench.pdf_child HTML PDF``.

Renders one HTML file to PDF with :func:`reportgen.render.render_pdf` and prints
``{"import_s", "render_s", "warnings"}`` as JSON. Kept apart from
:mod:`bench.rendering` so the child imports only what rendering needs.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    """Render ``argv[0]`` (HTML) to ``argv[1]`` (PDF)."""
    if len(argv) != 2:
        print("usage: python -m bench.pdf_child HTML PDF", file=sys.stderr)
        return 2
    started = time.perf_counter()
    from reportgen.render import render_pdf

    imported = time.perf_counter() - started
    rendered = render_pdf(Path(argv[0]).read_text(encoding="utf-8"))
    Path(argv[1]).write_bytes(rendered.data)
    print(json.dumps({"import_s": imported, "render_s": rendered.seconds,
                      "warnings": len(rendered.warnings)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
