"""PDF rendering under a deadline: WeasyPrint in a worker process that can be killed.

A thread cannot be stopped, and a document that makes WeasyPrint's layout run
for minutes (a huge table, a pathological stylesheet from a user template)
must not hold a report, or a service worker, forever. So the PDF is rendered
by a child process (:data:`_BOOTSTRAP`) that reads
documents from a pipe and answers with the PDF bytes; when the deadline
passes the child is killed and a :class:`~reportgen.errors.RenderError`
naming the file is raised.

Children are reused: starting one costs an interpreter plus WeasyPrint's
import (about half a second), a render of a typical report a fraction of
that. The child imports only what rendering needs (:data:`_BOOTSTRAP`), not
the whole ``reportgen`` package with its LangGraph and web stack.
Up to :data:`MAX_IDLE_WORKERS` idle children are kept; concurrent renders
start more. Every child is ended when the process exits.

Why not :mod:`multiprocessing`: ``fork`` is unsafe in a process that runs
threads (the dispatcher, asyncio's executors), ``spawn`` re-imports the main
module in every child, and ``forkserver`` only preloads it on some Python
versions. A plain ``subprocess`` with two pipes and
:class:`multiprocessing.connection.Connection` framing has none of those issues.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

from reportgen.errors import RenderError

__all__ = ["MAX_IDLE_WORKERS", "render_in_worker", "shutdown_workers"]

#: Idle worker processes kept for reuse.
MAX_IDLE_WORKERS = 2

#: The folder that holds the ``reportgen`` package, so the child imports
#: the same code as its parent.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])

#: The child's program (``python -c``). ``reportgen`` and ``reportgen.render``
#: are registered as bare namespace modules, so importing
#: ``reportgen.render.worker`` and ``reportgen.render.pdf`` does not run the
#: packages' ``__init__`` (which import the pipeline, LangGraph and the web
#: API: seconds of start-up the renderer does not need).
_BOOTSTRAP = """\
import sys, types
root = sys.argv[1]
for name, folder in (("reportgen", "/reportgen"), ("reportgen.render", "/reportgen/render")):
    module = types.ModuleType(name)
    module.__path__ = [root + folder]
    sys.modules[name] = module
sys.path.insert(0, root)
from reportgen.render.worker import main
main(sys.argv[2:])
"""


class _Worker:
    """One child process and its two pipe ends."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP, _PACKAGE_ROOT, str(to_child_r), str(from_child_w)],
                pass_fds=(to_child_r, from_child_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                close_fds=True,
            )
        except BaseException:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            raise
        os.close(to_child_r)
        os.close(from_child_w)
        self.requests = Connection(to_child_w, readable=False)
        self.replies = Connection(from_child_r, writable=False)

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self, *, grace_s: float = 2.0) -> None:
        """Ask the child to stop (end of input); kill it if it does not."""
        with contextlib.suppress(OSError):
            self.requests.close()
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()
            return
        with contextlib.suppress(OSError):
            self.replies.close()

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()
        for end in (self.requests, self.replies):
            with contextlib.suppress(OSError):
                end.close()


class _Pool:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()

    def acquire(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    self._busy.add(worker)
                    return worker
                worker.kill()
        worker = _Worker()
        with self._lock:
            self._busy.add(worker)
        return worker

    def release(self, worker: _Worker, *, healthy: bool) -> None:
        with self._lock:
            self._busy.discard(worker)
            keep = healthy and worker.alive() and len(self._idle) < MAX_IDLE_WORKERS
            if keep:
                self._idle.append(worker)
        if not keep:
            if healthy:
                worker.close()
            else:
                worker.kill()

    def shutdown(self) -> None:
        with self._lock:
            workers = self._idle + list(self._busy)
            self._idle, self._busy = [], set()
        for worker in workers:
            worker.close(grace_s=1.0)


_POOL = _Pool()
atexit.register(_POOL.shutdown)


def shutdown_workers() -> None:
    """End every worker process (they are started again on the next render)."""
    _POOL.shutdown()


def render_in_worker(html: str, *, target: str, timeout_s: float):
    """Render ``html`` to PDF in a worker process, within ``timeout_s`` seconds.

    Args:
        html: The self-contained document.
        target: The file being written, named in error messages.
        timeout_s: Deadline in seconds, counted from the call (a first call
            also pays for starting the worker).

    Returns:
        :class:`~reportgen.render.pdf.RenderedPDF` with every warning.

    Raises:
        ForbiddenURLError: The document asked for a non-``data:`` URL.
        RenderError: WeasyPrint failed, the deadline passed (the worker is
            killed), or the worker could not be started or died.
    """
    from reportgen.errors import ForbiddenURLError
    from reportgen.render.pdf import ForbiddenFetch, RenderedPDF

    deadline = time.monotonic() + timeout_s
    try:
        worker = _POOL.acquire()
    except OSError as exc:
        raise RenderError(f"cannot write {target}: cannot start the PDF renderer: {exc}") from exc
    healthy = False
    try:
        worker.requests.send((html, target))
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not worker.replies.poll(remaining):
            raise RenderError(
                f"cannot write {target}: rendering the PDF took longer than {timeout_s:g} s "
                "(the limit is REPORTGEN_RENDER_TIMEOUT_S); the renderer was stopped"
            )
        reply = worker.replies.recv()
        healthy = True
    except (EOFError, OSError) as exc:
        worker.kill()
        code = worker.process.returncode
        raise RenderError(
            f"cannot write {target}: the PDF renderer process ended unexpectedly "
            f"(exit status {code})"
        ) from exc
    finally:
        _POOL.release(worker, healthy=healthy)
    kind = reply[0]
    if kind == "ok":
        _, data, warnings, seconds = reply
        return RenderedPDF(data=data, warnings=tuple(warnings), seconds=seconds)
    if kind == "forbidden":
        _, message, url = reply
        raise ForbiddenURLError(message) from ForbiddenFetch(url)
    raise RenderError(reply[1])


def _serve(requests: Connection, replies: Connection) -> None:
    """The child's loop: render each document received, until end of input."""
    from reportgen.errors import ForbiddenURLError
    from reportgen.render.pdf import ForbiddenFetch, render_document

    # Warnings travel back in the reply; nothing goes to the parent's terminal.
    weasyprint_logger = logging.getLogger("weasyprint")
    weasyprint_logger.addHandler(logging.NullHandler())
    weasyprint_logger.propagate = False
    while True:
        try:
            html, target = requests.recv()
        except EOFError:
            return
        try:
            rendered = render_document(html, target=target)
        except ForbiddenURLError as exc:
            cause = exc.__cause__
            url = cause.url if isinstance(cause, ForbiddenFetch) else str(cause)
            replies.send(("forbidden", str(exc), url))
        except RenderError as exc:
            replies.send(("error", str(exc)))
        except Exception as exc:  # never expected: render_document wraps errors
            replies.send(("error", f"cannot write {target}: {type(exc).__name__}: {exc}"))
        else:
            replies.send(("ok", rendered.data, list(rendered.warnings), rendered.seconds))


def main(argv: list[str]) -> None:
    """The child's entry point: ``argv`` is ``[READ_FD, WRITE_FD]``."""
    requests = Connection(int(argv[0]), writable=False)
    replies = Connection(int(argv[1]), readable=False)
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        _serve(requests, replies)

