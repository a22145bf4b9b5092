"""The files shipped inside the package: built-in templates and agent definitions.

In the repository they are the top-level folders ``templates/`` and
``agents/``, where users see (and copy) them; ``pyproject.toml`` maps them to
the packages ``reportgen.builtin_templates`` and ``reportgen.builtin_agents``
(setuptools ``package-dir``), so a wheel carries them and an editable install
finds them in the checkout. Code reaches them through these functions, never
through a path relative to a source file, so the same lines work in the
checkout, an editable install and a wheel installed anywhere.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["AGENTS_PACKAGE", "TEMPLATES_PACKAGE", "agents_root", "templates_path", "templates_root"]

#: The package that holds the built-in templates (``templates/`` in the repository).
TEMPLATES_PACKAGE = "reportgen.builtin_templates"

#: The package that holds the built-in agent definitions (``agents/`` in the repository).
AGENTS_PACKAGE = "reportgen.builtin_agents"

#: Keeps :func:`templates_path`'s folder alive until the process exits.
_KEEP = contextlib.ExitStack()
atexit.register(_KEEP.close)


def templates_root() -> Traversable:
    """The built-in templates folder: ``<theme>.html.j2``, ``<theme>.css``, ``browse/``.

    Returns:
        A :class:`~importlib.resources.abc.Traversable` (a real folder unless
        the package is imported from a zip file).
    """
    return files(TEMPLATES_PACKAGE)


def agents_root() -> Traversable:
    """The built-in agent definitions folder: ``<name>/agent.toml``, ``<name>/prompts/*.j2``.

    Returns:
        A :class:`~importlib.resources.abc.Traversable`.
    """
    return files(AGENTS_PACKAGE)


@functools.cache
def templates_path() -> Path:
    """The built-in templates as a filesystem folder, for Jinja's ``FileSystemLoader``.

    An installed package (wheel or editable) is a real folder and is returned
    as it is; from a zip file it is extracted once (Python >= 3.12 can extract
    folders) and kept for the life of the process.

    Returns:
        The absolute path of the folder.
    """
    return Path(_KEEP.enter_context(as_file(templates_root()))).resolve()
