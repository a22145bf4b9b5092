"""Child process of the rendering benchmark: ``python -m bench.pdf_child HTML PDF ENGINE``.

Renders one HTML file to PDF with :func:`reportgen.render.pdf.render_pdf`
twice with ``ENGINE`` (``weasyprint`` or ``chromium``) and prints
``{"import_s", "first_s", "warm_s", "warnings"}`` as JSON: the first render
is what a fresh process pays (the chromium engine starts its browser), the
second what a render costs in a process that keeps its renderer warm (the
service's kept worker or browser; WeasyPrint's fonts already loaded).

Like the PDF worker (:data:`reportgen.render.worker._BOOTSTRAP`), the child
registers ``reportgen`` and ``reportgen.render`` as bare namespace modules,
so it imports only what rendering needs, not the package ``__init__`` files
(the pipeline, LangGraph, the exporters). The process's wall time, measured
by the parent, is then interpreter start-up + that import + the first render
(+ the warm one, which the parent subtracts).
"""

from __future__ import annotations

import json
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bare_packages() -> None:
    for name, folder in (("reportgen", "reportgen"), ("reportgen.render", "reportgen/render")):
        module = types.ModuleType(name)
        module.__path__ = [str(ROOT / folder)]
        sys.modules[name] = module


def main(argv: list[str]) -> int:
    """Render ``argv[0]`` (HTML) to ``argv[1]`` (PDF) with engine ``argv[2]``, twice."""
    if len(argv) != 3:
        print("usage: python -m bench.pdf_child HTML PDF ENGINE", file=sys.stderr)
        return 2
    started = time.perf_counter()
    _bare_packages()
    from reportgen.render.pdf import render_pdf

    imported = time.perf_counter() - started
    html = Path(argv[0]).read_text(encoding="utf-8")
    began = time.perf_counter()
    first = render_pdf(html, engine=argv[2])
    first_s = time.perf_counter() - began
    Path(argv[1]).write_bytes(first.data)
    began = time.perf_counter()
    render_pdf(html, engine=argv[2])
    warm_s = time.perf_counter() - began
    print(json.dumps({"import_s": imported, "first_s": first_s, "warm_s": warm_s,
                      "warnings": len(first.warnings)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
