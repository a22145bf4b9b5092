"""Finding and running report templates: built-in themes, user folders, the sandbox.

A *theme* is a page template ``<name>.html.j2`` plus an optional stylesheet
``<name>.css``. Two are built in (:data:`BUILTIN_THEMES`): ``report``, the
full report, and ``brief``, a short one. Both extend ``base.html.j2``, the
layout with the named blocks users override.

A user's template folder holds only the files they change; every name is
looked up there first and in :data:`BUILTIN_TEMPLATE_DIR` after, and
``builtin/<name>`` always names the shipped file (so a user's
``report.html.j2`` can ``{% extends "builtin/report.html.j2" %}``). Themes are
chosen by *name* only (``[a-z][a-z0-9_-]*``): a name never becomes a path.

User templates are code from outside, so they run in Jinja's
:class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` with autoescape on,
:class:`~jinja2.StrictUndefined`, and three more rules:

* ``{% autoescape false %}`` is refused when the template is compiled;
* the ``safe`` filter is the HTML sanitizer (:func:`~reportgen.render.sanitize.sanitize_markup`),
  so marking report text as safe cannot make it live markup;
* rendering has a deadline and an output cap (:class:`Budget`), checked on
  every call, attribute lookup and chunk of output.

Every failure becomes a :class:`~reportgen.errors.RenderError` naming the
template file and line.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

from reportgen.errors import RenderError
from reportgen.resources import templates_path

__all__ = [
    "BUILTIN_PREFIX",
    "BUILTIN_TEMPLATE_DIR",
    "BUILTIN_THEMES",
    "Budget",
    "TemplateEnvironment",
    "available_templates",
    "check_template_name",
    "make_environment",
    "render_template",
]

#: The built-in templates: ``templates/`` at the repository root, shipped as
#: the package ``reportgen.builtin_templates`` (:mod:`reportgen.resources`).
#: Users copy and customise it.
BUILTIN_TEMPLATE_DIR: Path = templates_path()

#: Template names under this prefix always resolve to the built-in files.
BUILTIN_PREFIX = "builtin"

#: The themes shipped in :data:`BUILTIN_TEMPLATE_DIR`.
BUILTIN_THEMES: tuple[str, ...] = ("brief", "report")

#: Files in the template folders that are not themes.
_NOT_THEMES = frozenset({"base"})

_THEME_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")

#: Largest HTML a template may produce (characters). A report with 40
#: sections and 15 inline charts is about 2 MB; this leaves room for far more.
MAX_OUTPUT_CHARS = 64 * 1024 * 1024


class _Expired(Exception):
    """Internal: the budget ran out (turned into a RenderError by the caller)."""


@dataclass
class Budget:
    """A deadline and an output cap for one template render.

    Attributes:
        seconds: Wall-clock seconds allowed (``None``: no deadline).
        max_chars: Most characters of output.
    """

    seconds: float | None = None
    max_chars: int = MAX_OUTPUT_CHARS
    _deadline: float | None = field(default=None, init=False, repr=False)

    def start(self) -> None:
        self._deadline = None if self.seconds is None else time.monotonic() + self.seconds

    def check(self) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _Expired(f"took longer than {self.seconds:g} s")


class TemplateEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox users' templates run in (see the module docstring).

    Args:
        budget: Deadline and output cap, checked on each call and lookup.
        **options: Passed to :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`.
    """

    def __init__(self, budget: Budget, **options: Any) -> None:
        super().__init__(**options)
        self.budget = budget

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        for node in tree.find_all(nodes.EvalContextModifier):
            if any(keyword.key == "autoescape" for keyword in node.options):
                raise jinja2.TemplateSyntaxError(
                    "autoescaping cannot be changed in report templates "
                    "(report text comes from sources and must stay escaped)",
                    node.lineno, name, filename,
                )
        return tree

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.budget.check()
        return super().call(__context, __obj, *args, **kwargs)

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.budget.check()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.budget.check()
        return super().getitem(obj, argument)


def check_template_name(name: str) -> str:
    """Refuse a theme name that could be anything but a plain name.

    Raises:
        RenderError: ``name`` is not ``[a-z][a-z0-9_-]{0,39}``.
    """
    if not isinstance(name, str) or not _THEME_NAME.match(name):
        raise RenderError(
            f"template name {name!r} is not a plain name (lower-case letters, digits, '-' and '_')"
        )
    return name


def available_templates(template_dir: Path | None = None) -> list[str]:
    """Names of the themes that can be selected, built-in and from ``template_dir``.

    Args:
        template_dir: A user's template folder (its ``<name>.html.j2`` files
            with plain names add themes).

    Returns:
        Sorted theme names.

    Raises:
        RenderError: ``template_dir`` is given but is not a folder.
    """
    names = set(BUILTIN_THEMES)
    if template_dir is not None:
        folder = _user_folder(template_dir)
        for path in folder.glob("*.html.j2"):
            stem = path.name.removesuffix(".html.j2")
            if _THEME_NAME.match(stem) and stem not in _NOT_THEMES:
                names.add(stem)
    return sorted(names)


def _user_folder(template_dir: Path) -> Path:
    folder = Path(template_dir)
    if not folder.is_dir():
        raise RenderError(f"template folder {folder} does not exist")
    return folder


def make_environment(template_dir: Path | None, budget: Budget) -> TemplateEnvironment:
    """The sandboxed environment over ``template_dir`` then the built-ins.

    Raises:
        RenderError: ``template_dir`` is not a folder.
    """
    search_path = [BUILTIN_TEMPLATE_DIR]
    if template_dir is not None:
        search_path.insert(0, _user_folder(template_dir))
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(search_path),
        jinja2.PrefixLoader({BUILTIN_PREFIX: jinja2.FileSystemLoader(BUILTIN_TEMPLATE_DIR)}),
    ])
    return TemplateEnvironment(
        budget,
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=0,
    )


def render_template(env: TemplateEnvironment, name: str, context: dict[str, Any]) -> str:
    """Render template ``name`` within the environment's budget.

    Args:
        env: From :func:`make_environment`.
        name: Template file name (``"report.html.j2"``).
        context: Template variables.

    Returns:
        The output text.

    Raises:
        RenderError: The template is missing or invalid, breaks a sandbox
            rule, uses an undefined name, recurses without end, fails in a
            filter, or exceeds the budget. The message names the template file
            and line where known.
    """
    budget = env.budget
    budget.start()
    try:
        template = env.get_template(name)
        chunks: list[str] = []
        size = 0
        for chunk in template.generate(context):
            chunks.append(chunk)
            size += len(chunk)
            if size > budget.max_chars:
                raise _Expired(f"produced more than {budget.max_chars:,} characters")
            budget.check()
        return "".join(chunks)
    except RenderError:
        raise
    except jinja2.TemplateSyntaxError as exc:
        where = _describe(exc.filename or exc.name or name, exc.lineno)
        raise RenderError(f"cannot render HTML: {where}: {exc.message}") from exc
    except jinja2.TemplateNotFound as exc:
        raise RenderError(
            f"cannot render HTML: template {exc.name!r} not found in the template folder or the built-ins"
            + _location_suffix(exc.__traceback__, env)
        ) from exc
    except _Expired as exc:
        raise RenderError(
            f"cannot render HTML: template {name!r}{_location_suffix(exc.__traceback__, env)} {exc}"
        ) from exc
    except RecursionError as exc:
        raise RenderError(
            f"cannot render HTML: template {name!r} recurses without end (a template that "
            "extends or includes itself? extend builtin/<name> instead)"
        ) from exc
    except Exception as exc:  # sandbox SecurityError, UndefinedError, errors in filters
        frame = _template_frame(exc.__traceback__, env)
        location = _describe(*frame) if frame else f"template {name!r}"
        kind = type(exc).__name__
        raise RenderError(f"cannot render HTML: {location}: {kind}: {exc}") from exc


def _describe(filename: str, lineno: int | None) -> str:
    return f"{filename}, line {lineno}" if lineno else filename


def _location_suffix(tb: TracebackType | None, env: jinja2.Environment) -> str:
    where = _template_frame(tb, env)
    return f" ({_describe(*where)})" if where else ""


def _template_frame(
    tb: TracebackType | None, env: jinja2.Environment
) -> tuple[str, int] | None:
    """The innermost traceback frame that is template code: ``(file, line)``.

    Jinja rewrites tracebacks so that each template frame is replaced by a
    fake one compiled with the template's file name and line, whose globals
    hold ``__jinja_exception__`` (``jinja2.debug.fake_traceback``).
    """
    found = None
    for frame, lineno in _walk(tb):
        if "__jinja_exception__" in frame.f_globals or "__jinja_template__" in frame.f_globals:
            filename = frame.f_code.co_filename
            found = (filename, lineno)
    return found


def _walk(tb: TracebackType | None) -> Iterator[tuple[Any, int]]:
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next
