"""Plugins: the ``reportgen`` entry-point group and its hook specifications (pluggy).

Following simonw/llm's ``hookspecs.py`` / ``plugins.py``: a plugin is a module
with functions marked ``@reportgen.plugins.hookimpl``, published under the
``reportgen`` entry-point group::

    # pyproject.toml of a plugin package
    [project.entry-points.reportgen]
    my_plugin = "my_plugin"

    # my_plugin.py
    from reportgen.plugins import hookimpl

    @hookimpl
    def register_agents(register):
        register(Path(__file__).parent / "agents")     # folders holding agent.toml

    @hookimpl
    def register_brains(register):
        register("my-agent.default", MyBrain)          # factory(spec) -> Brain

Every hook receives one ``register`` callable. The built-in agents, brains,
search backends, exporters and chart kinds register through the very same
hooks (:mod:`reportgen.builtins`), so a plugin can do all that the core does.

Which entry points load is the ``REPORTGEN_PLUGINS`` setting: unset, all of
them; empty, none (the test suite's default: plugin autoload is off under
tests); a comma-separated list, only those. A plugin that raises at import is
a :class:`~reportgen.errors.PluginError` naming it — never silently skipped.
"""

from __future__ import annotations

import importlib.metadata
from typing import Any, Callable

import pluggy

from reportgen.errors import PluginError

__all__ = ["ENTRY_POINT_GROUP", "Hooks", "hookimpl", "hookspec", "plugin_manager"]

#: The entry-point group plugins publish under.
ENTRY_POINT_GROUP = "reportgen"

hookspec = pluggy.HookspecMarker("reportgen")
hookimpl = pluggy.HookimplMarker("reportgen")

Register = Callable[..., None]


class Hooks:
    """The hook specifications. Each hook gets ``register`` and calls it once per thing."""

    @hookspec
    def register_agents(self, register: Register) -> None:
        """Register agent definitions: ``register(folder)``.

        ``folder`` (a :class:`pathlib.Path` or an ``importlib.resources``
        traversable) is either one agent's folder (it holds ``agent.toml``)
        or a folder of such folders.
        """

    @hookspec
    def register_brains(self, register: Register) -> None:
        """Register brains: ``register(name, factory)``; ``factory(spec)`` returns a
        :class:`~reportgen.agents.runtime.Brain`. Agent specs name brains in ``[brains]``.
        ``factory`` may be an import path, ``"package.module:BrainClass"``: the module is
        then imported only when a run uses the brain (start-up stays light)."""

    @hookspec
    def register_search_backends(self, register: Register) -> None:
        """Register search modes: ``register(name, factory)``; ``factory(offline, settings, web)``
        returns a :class:`~reportgen.sources.models.SearchBackend` (``offline``: the run's
        offline backends; ``web``: a web backend passed by the caller, or ``None``)."""

    @hookspec
    def register_exporters(self, register: Register) -> None:
        """Register report exporters: ``register(exporter)``, a
        :class:`~reportgen.render.exporters.Exporter` (file name and a write function)."""

    @hookspec
    def register_chart_kinds(self, register: Register) -> None:
        """Register chart kinds: ``register(name, draw)``; ``draw(spec)`` returns SVG text."""


def _wanted(setting: str | None) -> set[str] | None:
    if setting is None:
        return None
    return {name.strip() for name in setting.split(",") if name.strip()}


def plugin_manager(plugins: str | None) -> pluggy.PluginManager:
    """A plugin manager holding the built-ins and the selected entry-point plugins.

    Args:
        plugins: The ``REPORTGEN_PLUGINS`` setting: ``None`` loads every
            installed plugin, ``""`` none, ``"a,b"`` only those entry points.

    Returns:
        The manager; the built-ins are registered first as ``reportgen.builtins``.

    Raises:
        PluginError: A selected plugin is not installed, or raised while importing.
    """
    from reportgen import builtins

    pm = pluggy.PluginManager("reportgen")
    pm.add_hookspecs(Hooks)
    pm.register(builtins, name="reportgen.builtins")
    wanted = _wanted(plugins)
    found = {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    if wanted is not None:
        missing = sorted(wanted - set(found))
        if missing:
            raise PluginError(f"plugin {missing[0]!r} (REPORTGEN_PLUGINS) is not installed; "
                              f"installed: {', '.join(sorted(found)) or 'none'}")
    for name, ep in sorted(found.items()):
        if wanted is not None and name not in wanted:
            continue
        try:
            module: Any = ep.load()
        except Exception as exc:  # noqa: BLE001 - any import failure names the plugin
            raise PluginError(f"plugin {name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}") from exc
        try:
            pm.register(module, name=name)
        except ValueError as exc:
            raise PluginError(f"plugin {name!r} ({ep.value}) cannot be registered: {exc}") from exc
    return pm
