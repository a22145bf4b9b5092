"""The A2A conformance kit (a2a-tck, 1.0 line) at MUST level over JSON-RPC, against ``reportgen serve``.

``make tck-deps`` installs the kit from a copy of ``../shared/vendor/a2a-tck``
into ``.venv-tck`` (cached); this test starts one ``reportgen serve`` on a
free loopback port, runs ``run_tck.py --sut-host URL --transport jsonrpc
--level must`` and requires 0 failures and 0 errors. The kit's messages
(``tck-...`` message ids) are acted out by
:mod:`reportgen.api.a2a_scenarios` on the service's own A2A stack.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

TCK_VENV = Path(os.environ.get("REPORTGEN_TCK_VENV", ".venv-tck"))
TCK_DIR = TCK_VENV / "src"
REPORTGEN = Path(shutil.which("reportgen") or Path(".venv/bin/reportgen"))

pytestmark = pytest.mark.skipif(not (TCK_VENV / "bin" / "python").exists() or not (TCK_DIR / "run_tck.py").exists(),
                                reason="the conformance kit is not installed (make tck-deps)")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_the_conformance_kit_passes_at_must_level_over_jsonrpc(tmp_path):
    port = _free_port()
    env = {**os.environ, "REPORTGEN_HOME": str(tmp_path / "home"), "REPORTGEN_OUT_DIR": str(tmp_path / "out")}
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen([str(REPORTGEN), "serve", "--port", str(port)], env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/.well-known/agent-card.json", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        run = subprocess.run(
            [str((TCK_VENV / "bin" / "python").absolute()), "run_tck.py", "--sut-host", url,
             "--transport", "jsonrpc", "--level", "must"],
            cwd=TCK_DIR, capture_output=True, text=True, timeout=900,
        )
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    out = Path("outputs") / "tck"
    out.mkdir(parents=True, exist_ok=True)
    (out / "must-jsonrpc.txt").write_text(run.stdout + run.stderr)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?)", summary)}
    assert counts.get("passed", 0) > 0, summary
    assert counts.get("failed", 0) == 0 and counts.get("error", 0) == 0 and counts.get("errors", 0) == 0, (
        summary + "\n" + "\n".join(line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))))
    assert run.returncode == 0, summary
