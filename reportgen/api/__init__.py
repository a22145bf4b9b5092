"""The report service: REST API with live progress (SSE), agent cards, an A2A endpoint, browse pages.

Typical use::

    import uvicorn
    from reportgen.api import create_app

    uvicorn.run(create_app(), host="127.0.0.1", port=8000)

or ``reportgen serve`` / ``make serve``.
"""

from reportgen.api.app import create_app

__all__ = ["create_app"]
