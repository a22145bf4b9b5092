"""The report service: REST API with live progress (SSE), agent cards, an A2A endpoint, browse pages.

Typical use::

    import uvicorn
    from reportgen.api import create_app

    uvicorn.run(create_app(), host="127.0.0.1", port=8000)

or ``reportgen serve`` / ``make serve``.
"""

import typing as _typing

from reportgen._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from reportgen.api.app import create_app

__all__ = ["create_app"]

# Imported on first use: ``reportgen card`` reads reportgen.api.card without the web stack.
__getattr__, __dir__ = _lazy_exports(__name__, {"create_app": "reportgen.api.app"})
