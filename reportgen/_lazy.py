"""Names a package re-exports, imported on first use (PEP 562).

One helper for every package whose ``__init__`` re-exports names from its
private modules (the ``httpx`` habit) while keeping start-up light
(issue 15): ``import reportgen.render`` must not load WeasyPrint,
matplotlib and python-docx, nor ``import reportgen.charts`` matplotlib,
until a name that needs them is used. ``tests/test_startup.py`` counts the
modules each command imports.

Typical use, at the end of a package ``__init__``::

    __getattr__, __dir__ = lazy_exports(__name__, {"render_pdf": "reportgen.render.pdf", ...})

with the same names imported under ``if TYPE_CHECKING:`` so type checkers
see them. :func:`lazy_module` does the same for one heavy library a module
uses only inside its functions (the model client in :mod:`reportgen.llm`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports", "lazy_module"]


class _LazyModule:
    """Stands for a module until an attribute is read; then imports it (once) and reads from it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """A stand-in for module ``name`` that imports it on the first attribute read.

    Unlike :class:`importlib.util.LazyLoader`, nothing is put in
    ``sys.modules`` before the first use, so the start-up test's module count
    (``tests/test_startup.py``) stays true.

    Args:
        name: Dotted module name, e.g. ``"openai"``.

    Returns:
        An object whose attributes are the module's (``openai.OpenAI``,
        ``except openai.APIError``). Import the real module under
        ``if TYPE_CHECKING:`` for the type checker.
    """
    return _LazyModule(name)


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module ``__getattr__`` and ``__dir__`` functions serving ``exports`` on first use.

    Args:
        package: The package's ``__name__``.
        exports: Exported name → dotted name of the module that defines it.

    Returns:
        ``(__getattr__, __dir__)`` for the package's namespace. The first
        access to a name imports its module and stores the value in the
        package, so later accesses are plain attribute reads.

    Raises:
        AttributeError: (from ``__getattr__``) the package exports no such name.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
