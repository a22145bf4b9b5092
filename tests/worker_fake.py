"""A ``reportgen worker`` with the tests' fake search: a helper process for the cluster and fault tests.

The environment chooses everything (``REPORTGEN_DATABASE_URL``, ``REPORTGEN_BROKER_URL``,
``REPORTGEN_HOME``, ``REPORTGEN_OUT_DIR``, ``REPORTGEN_LEASE_S``, ...); ``FAKE_SEARCH_DELAY``
is the seconds each search takes (so a report runs long enough to kill its worker mid-way).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reportgen.broker import run_worker  # noqa: E402
from reportgen.config import Settings  # noqa: E402

from api_kit import SlowSearch  # noqa: E402

if __name__ == "__main__":
    run_worker(Settings(), search=SlowSearch(float(os.environ.get("FAKE_SEARCH_DELAY", "0"))), backoff_scale=0,
               loglevel=os.environ.get("FAKE_WORKER_LOGLEVEL", "WARNING"))
