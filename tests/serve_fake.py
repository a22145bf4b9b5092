"""The report service with the tests' fake search on 127.0.0.1 and a free port; prints its URL, then serves.

A helper process for the tests that really kill the service (``kill -9``):
``REPORTGEN_HOME`` and ``REPORTGEN_OUT_DIR`` choose its data.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).parent))

from reportgen.api import create_app  # noqa: E402
from reportgen.config import Settings  # noqa: E402

from fakes import FakeSearch  # noqa: E402


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    app = create_app(Settings(), search=FakeSearch(), backoff_scale=0)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws="none")).run(sockets=[sock])


if __name__ == "__main__":
    main()
