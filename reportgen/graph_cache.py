"""``reportgen graph`` without importing LangGraph: the drawing, cached by what it is drawn from.

Drawing the report and task graphs (:func:`reportgen.graph.mermaid`) means
compiling them, and importing LangGraph and LangChain alone takes seconds
(issue 15: the command must answer at once). The drawing depends only on

* reportgen's own code (the wiring in :mod:`reportgen.graph`, the nodes'
  declared destinations), fingerprinted by every module file's path, size
  and modification time;
* the LangGraph and LangChain versions that draw it;
* the registered agents, in order (one task-graph node each), which the
  registry reads without importing any brain.

So it is drawn once per combination, kept in ``<home>/cache/graph-<key>.mmd``
(:attr:`~reportgen.config.Settings.cache_dir`), and printed from there
afterwards. A change of any of the three gives a new key; deleting the
folder is always safe. ``tests/test_startup.py`` checks a second
``reportgen graph`` imports no LangGraph and prints the same text.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportgen.config import Settings

__all__ = ["cached_mermaid", "drawing_key"]

#: The distributions whose code draws the graphs.
_DRAWN_BY = ("langgraph", "langchain-core")


def _code_fingerprint(package_dir: Path) -> list[tuple[str, int, int]]:
    files = []
    for path in sorted(package_dir.rglob("*.py")):
        stat = path.stat()
        files.append((path.relative_to(package_dir).as_posix(), stat.st_size, stat.st_mtime_ns))
    return files


def drawing_key(settings: Settings) -> str:
    """The cache key of the graph drawing for ``settings``.

    Args:
        settings: Select the agents (``REPORTGEN_AGENTS_DIR``, ``REPORTGEN_PLUGINS``).

    Returns:
        A hex digest (24 characters) of the code fingerprint, the drawing
        libraries' versions and the registered agent names.

    Raises:
        AgentDefinitionError: An agent definition is broken.
        PluginError: A plugin failed to load.
    """
    from reportgen.agents.registry import load_registry

    package_dir = Path(__file__).resolve().parent
    versions = {}
    for name in _DRAWN_BY:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = ""
    material = {
        "code": _code_fingerprint(package_dir),
        "versions": versions,
        "agents": list(load_registry(settings).agents),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:24]


def cached_mermaid(settings: Settings) -> str:
    """Both graphs as mermaid (:func:`reportgen.graph.mermaid`), from the cache when it holds them.

    Args:
        settings: The data dir (``cache_dir``) and the agent selection.

    Returns:
        The mermaid document, identical to :func:`reportgen.graph.mermaid`'s.

    Raises:
        AgentDefinitionError: An agent definition is broken.
        PluginError: A plugin failed to load.
    """
    path = settings.cache_dir / f"graph-{drawing_key(settings)}.mmd"
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    from reportgen.graph import mermaid
    from reportgen.render.files import write_text_atomic

    text = mermaid()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
    except OSError:  # a read-only data dir: the drawing is still printed, just not kept
        pass
    return text
