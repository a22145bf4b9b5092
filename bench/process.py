"""Running a child process and measuring its wall time and peak memory.

Peak memory is the child's own ``ru_maxrss``, read with :func:`os.wait4` on
that one child (``getrusage(RUSAGE_CHILDREN)`` would report the largest of
*every* child waited for so far, whichever it was). For a process that
starts children of its own (Chromium), it is the largest single process of
the tree, not the sum.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Measured", "failure", "fsync_latency_ms", "python_child", "run_measured"]


@dataclass(frozen=True)
class Measured:
    """A finished child process.

    Attributes:
        wall_s: Wall time from start to exit, in seconds (interpreter start-up included).
        peak_rss_mb: Peak resident set size of the child, in MiB.
        returncode: Exit status (negative: killed by that signal).
        stdout: What it printed on stdout.
        stderr: What it printed on stderr.
        timed_out: True when it was killed for running past its deadline.
        cpu_s: CPU time of the child (user + system), in seconds: what a
            machine busy with other work inflates far less than wall time.
    """

    wall_s: float
    peak_rss_mb: float
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    cpu_s: float = 0.0


def run_measured(cmd: Sequence[str], *, env: Mapping[str, str] | None = None,
                 timeout_s: float = 300.0, cwd: str | None = None) -> Measured:
    """Run ``cmd`` to completion and measure it.

    Args:
        cmd: Program and arguments.
        env: The child's whole environment (default: this process's).
        timeout_s: Deadline; the child is killed past it.
        cwd: Working directory of the child.

    Returns:
        Wall time, peak memory, exit status and output.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=dict(env) if env is not None else None, cwd=cwd)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(timeout_s, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait again
        out.seek(0)
        err.seek(0)
        # ru_maxrss is in KiB on Linux, in bytes on macOS.
        peak_bytes = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
        return Measured(wall_s=wall, peak_rss_mb=peak_bytes / 2**20,
                        returncode=proc.returncode,
                        stdout=out.read().decode("utf-8", "replace"),
                        stderr=err.read().decode("utf-8", "replace"), timed_out=killed.is_set(),
                        cpu_s=usage.ru_utime + usage.ru_stime)


def failure(measured: Measured) -> str:
    """The line of a failed child's stderr that names the error (its last exception line)."""
    lines = [line.strip() for line in measured.stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b", line):
            return line
    if measured.timed_out:
        return "timed out"
    return lines[-1] if lines else f"exit status {measured.returncode}"


def python_child(module: str, *args: str) -> list[str]:
    """The command that runs ``python -m module args`` with this interpreter."""
    return [sys.executable, "-m", module, *args]


def fsync_latency_ms(samples: int = 40) -> float:
    """Median time of one ``fsync`` of a small append in the temp dir, in ms.

    The message log and the checkpointer ``fsync`` on every write, so on a
    shared machine the disk's current fsync latency is part of every
    orchestration figure; benchmarks print it beside theirs.
    """
    times = []
    with tempfile.TemporaryFile() as fh:
        for _ in range(samples):
            fh.write(b"x" * 300 + b"\n")
            fh.flush()
            started = time.perf_counter()
            os.fsync(fh.fileno())
            times.append(1000.0 * (time.perf_counter() - started))
    return statistics.median(times)
