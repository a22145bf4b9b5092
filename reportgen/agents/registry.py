"""The agent registry: every agent spec, brain, search backend, exporter and chart kind, by name.

Built from the plugin hooks (:mod:`reportgen.plugins`) — the built-ins
register through them too — and the user's agent folder::

    built-ins (reportgen.builtins) ─┐
    plugins (entry points) ─────────┼──► Registry ──► task graph nodes   (graph.build_task_graph)
    --agents-dir / REPORTGEN_AGENTS_DIR ┘      │    ├─► blueprint validation (Blueprint.validate_dag)
                                              │    ├─► the planner's agents (blueprint.planner)
                                              │    └─► agent-card skills  (api.card)
                                              └──► bind(settings, llm): one Agent per spec, brain chosen per role

Precedence: a user folder overrides any agent of the same name, a plugin may
override a built-in, two plugins registering one name is a
:class:`~reportgen.errors.PluginError` naming both.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from reportgen.agents.spec import AgentSpec, load_spec
from reportgen.errors import AgentDefinitionError, PluginError

if TYPE_CHECKING:
    from reportgen.agents.runtime import Agent, Brain
    from reportgen.config import Settings
    from reportgen.llm import LLM

__all__ = ["BUILTIN", "BrainRef", "Registry", "load_registry"]

#: The name the built-ins register under.
BUILTIN = "reportgen.builtins"

#: The task kinds the pipeline itself plans (research, chart, write, introduction,
#: conclusion); agents serving other kinds are planned through their ``[plan]``.
PIPELINE_KINDS = ("research", "chart", "write", "introduction", "conclusion")


#: ``package.module:Attribute`` (the entry-point object reference syntax).
_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class BrainRef:
    """A brain registered by its import path (``"package.module:BrainClass"``), imported on first use.

    Registering ``register("writer.model", "reportgen.agents.model_writer:ModelWriterBrain")``
    keeps the brain's module — and the model client, LangChain or matplotlib
    it imports — out of every command that only reads the registry
    (``reportgen plugins``, the agent card, ``reportgen graph``; issue 15).
    Called like the factory it stands for: ``ref(spec)`` imports the target
    once and returns ``target(spec)``.

    Args:
        path: ``module:attribute`` (attribute may be dotted), as in entry points.
        origin: The plugin that registered it (named in errors).

    Raises:
        PluginError: ``path`` is not of that form.
    """

    def __init__(self, path: str, origin: str) -> None:
        if not _REF.match(path):
            raise PluginError(f"plugin {origin!r} registers brain {path!r}: an import path is "
                              "'package.module:Attribute'")
        self.path = path
        self.origin = origin
        self._target: Any = None

    def resolve(self) -> Callable[[AgentSpec], Brain]:
        """The factory itself, imported now (once).

        Raises:
            PluginError: The module cannot be imported, lacks the attribute,
                or the attribute is not callable.
        """
        if self._target is None:
            module_name, _, attr = self.path.partition(":")
            try:
                target: Any = importlib.import_module(module_name)
                for part in attr.split("."):
                    target = getattr(target, part)
            except Exception as exc:  # noqa: BLE001 - any import failure names the plugin and the path
                raise PluginError(f"plugin {self.origin!r}: brain {self.path!r} cannot be loaded: "
                                  f"{type(exc).__name__}: {exc}") from exc
            if not callable(target):
                raise PluginError(f"plugin {self.origin!r}: brain {self.path!r} is a "
                                  f"{type(target).__name__}, not a callable")
            self._target = target
        factory: Callable[[AgentSpec], Brain] = self._target
        return factory

    @property
    def provides(self) -> tuple[str, ...] | None:
        """The target's ``provides`` (imports it)."""
        provided: tuple[str, ...] | None = getattr(self.resolve(), "provides", None)
        return provided

    def __call__(self, spec: AgentSpec) -> Brain:
        return self.resolve()(spec)

    def __repr__(self) -> str:
        return f"BrainRef({self.path!r})"


@dataclass
class _Entry:
    value: Any
    origin: str


@dataclass
class Registry:
    """What the built-ins, plugins and the user's folder registered.

    Attributes:
        agents: Agent specs by name.
        brains: Brain factories by name (``factory(spec) -> Brain``).
        search_backends: Search-mode factories by name.
        exporters: Exporters by name.
        chart_kinds: Chart drawing functions by kind.
        plugins: Names of the loaded plugins, built-ins first.
    """

    agents: dict[str, AgentSpec] = field(default_factory=dict)
    brains: dict[str, Callable[[AgentSpec], Brain]] = field(default_factory=dict)
    search_backends: dict[str, Callable[..., Any]] = field(default_factory=dict)
    exporters: dict[str, Any] = field(default_factory=dict)
    chart_kinds: dict[str, Callable[..., str]] = field(default_factory=dict)
    plugins: list[str] = field(default_factory=list)
    origins: dict[tuple[str, str], str] = field(default_factory=dict)

    def agent_for(self, kind: str) -> AgentSpec:
        """The agent that serves task kind ``kind`` (the last registered wins: overrides).

        Raises:
            AgentDefinitionError: No registered agent serves it.
        """
        for spec in reversed(list(self.agents.values())):
            if kind in spec.kinds:
                return spec
        raise AgentDefinitionError(f"no registered agent serves {kind!r} tasks; agents: {', '.join(self.agents)}")

    def planned_agents(self) -> list[AgentSpec]:
        """Agents the planner adds through their ``[plan]`` (beyond the pipeline's own kinds)."""
        return [s for s in self.agents.values() if s.plan is not None]

    def kinds(self) -> dict[str, list[str]]:
        """Task kinds each agent serves, by agent name (blueprint validation)."""
        return {name: list(spec.kinds) for name, spec in self.agents.items()}

    def bind(self, settings: Settings, llm: LLM | None) -> dict[str, Agent]:
        """One runnable agent per spec, with its brain chosen per model role.

        An agent whose spec has a ``model`` brain uses it when a model is
        configured for its role (``REPORTGEN_LLM_<ROLE>_MODEL`` or
        ``REPORTGEN_LLM_MODEL``); otherwise its extractive brain. So a writer
        model alone gives model writing and extractive everything else.

        Args:
            settings: The run's settings.
            llm: The run's model clients (``None``: no model at all).

        Returns:
            Agents by name.
        """
        from reportgen.agents.runtime import Agent

        out: dict[str, Agent] = {}
        for name, spec in self.agents.items():
            has_model = llm is not None and spec.role is not None and llm.has_model(spec.role)
            mode, brain_name = spec.brain_for(has_model)
            brain = self.brains[brain_name](spec)
            model = llm.model_name(spec.role) if mode == "model" and llm is not None and spec.role else None
            out[name] = Agent(spec, brain, mode=mode, brain_name=brain_name, model=model)
        return out

    def describe(self) -> list[str]:
        """Lines for ``reportgen plugins``: each plugin and what it registered."""
        lines = []
        for plugin in self.plugins:
            lines.append(plugin)
            for what in ("agents", "brains", "search_backends", "exporters", "chart_kinds"):
                names = sorted(n for (w, n), o in self.origins.items() if w == what and o == plugin)
                if names:
                    lines.append(f"  {what.replace('_', ' ')}: {', '.join(names)}")
        user = sorted(n for (w, n), o in self.origins.items() if w == "agents" and o not in self.plugins)
        if user:
            lines.append("user agents folder")
            lines.append(f"  agents: {', '.join(user)}")
        return lines

    def _add(self, what: str, name: str, value: Any, origin: str) -> None:
        table: dict[str, Any] = getattr(self, what)
        earlier = self.origins.get((what, name))
        if earlier is not None and earlier != BUILTIN and earlier != origin and origin in self.plugins:
            raise PluginError(f"plugin {origin!r} registers {what.rstrip('s').replace('_', ' ')} {name!r}, "
                              f"which plugin {earlier!r} registered already")
        table[name] = value
        self.origins[(what, name)] = origin


def _agent_folders(folder: Path | Traversable) -> list[Path | Traversable]:
    if (folder / "agent.toml").is_file():
        return [folder]
    if not folder.is_dir():
        raise AgentDefinitionError(f"{folder}: not a folder of agent definitions")
    return sorted((f for f in folder.iterdir() if f.is_dir() and (f / "agent.toml").is_file()),
                  key=lambda f: f.name)


def _collect(registry: Registry, pm: Any) -> None:
    """Run every plugin's hooks, each with a ``register`` that records the plugin's name."""
    hooks = ("register_agents", "register_brains", "register_search_backends", "register_exporters",
             "register_chart_kinds")
    for hook in hooks:
        impls = sorted(getattr(pm.hook, hook).get_hookimpls(), key=lambda i: i.plugin_name != BUILTIN)
        for impl in impls:
            origin = impl.plugin_name

            def register(*args: Any, _hook: str = hook, _origin: str = origin) -> None:
                _register(registry, _hook, _origin, *args)

            try:
                impl.function(register=register)
            except (AgentDefinitionError, PluginError):
                raise
            except Exception as exc:  # noqa: BLE001 - name the plugin whose hook raised
                raise PluginError(f"plugin {origin!r}: {hook} raised {type(exc).__name__}: {exc}") from exc


def _register(registry: Registry, hook: str, origin: str, *args: Any) -> None:
    if hook == "register_agents":
        (folder,) = args
        for one in _agent_folders(folder):
            where = f"{origin}: {one.name}/agent.toml" if origin != BUILTIN else f"agents/{one.name}/agent.toml"
            spec = load_spec(one, origin=where, trusted=origin == BUILTIN)
            registry._add("agents", spec.name, spec, origin)
    elif hook == "register_exporters":
        (exporter,) = args
        registry._add("exporters", exporter.name, exporter, origin)
    else:
        name, value = args
        what = {"register_brains": "brains", "register_search_backends": "search_backends",
                "register_chart_kinds": "chart_kinds"}[hook]
        if what == "brains" and isinstance(value, str):
            value = BrainRef(value, origin)
        if not callable(value):
            raise PluginError(f"plugin {origin!r} registers {what} {name!r} with a {type(value).__name__}, "
                              "not a callable")
        registry._add(what, name, value, origin)


def _check(registry: Registry, *, full: bool = False) -> None:
    """Every spec's brains exist; every pipeline kind is served; feeds name known inputs.

    Args:
        registry: What was registered.
        full: Also check the built-in agents' tools against their built-in
            brains, which imports every brain module (the test suite does:
            ``tests/test_registry.py``). Otherwise that pair, shipped and
            tested together, is trusted, so reading the registry loads no
            brain (issue 15: start-up); any other agent or brain is checked.
    """
    for spec in registry.agents.values():
        for mode, brain in spec.brains.items():
            if brain not in registry.brains:
                raise AgentDefinitionError(
                    f"{spec.origin}: field 'brains.{mode}': unknown brain {brain!r}; "
                    f"registered: {', '.join(sorted(registry.brains))}"
                )
        brain_name = spec.brain_for(False)[1]
        ours = (registry.origins.get(("agents", spec.name)) == BUILTIN
                and registry.origins.get(("brains", brain_name)) == BUILTIN)
        if ours and not full:
            continue
        for tool in spec.tools:
            provided = getattr(registry.brains[brain_name], "provides", None)
            if tool.kind == "builtin" and provided is not None and tool.name not in provided:
                raise AgentDefinitionError(
                    f"{spec.origin}: field 'tools': unknown tool {tool.name!r}; its brain provides "
                    f"{', '.join(provided)} (or declare kind = \"mcp\" with a server)"
                )
    for kind in PIPELINE_KINDS:
        registry.agent_for(kind)
    for spec in registry.planned_agents():
        assert spec.plan is not None
        for feed in spec.plan.feeds:
            consumer = registry.agent_for(feed.kind)
            if feed.input not in consumer.inputs:
                raise AgentDefinitionError(
                    f"{spec.origin}: field 'plan.feeds': the {consumer.name} agent has no input {feed.input!r} "
                    f"(its inputs: {', '.join(consumer.inputs)})"
                )


@functools.lru_cache(maxsize=16)
def _load(agents_dir: str | None, plugins: str | None) -> Registry:
    from reportgen.plugins import plugin_manager

    pm = plugin_manager(plugins)
    registry = Registry(plugins=[BUILTIN] + sorted(n for n, _ in pm.list_name_plugin() if n != BUILTIN))
    _collect(registry, pm)
    if agents_dir is not None:
        folder = Path(agents_dir)
        if not folder.is_dir():
            raise AgentDefinitionError(f"{folder}: the agents folder does not exist")
        for one in _agent_folders(folder):
            registry._add("agents", (spec := load_spec(one)).name, spec, str(folder))
    _check(registry)
    return registry


def load_registry(settings: Settings) -> Registry:
    """The registry for ``settings`` (cached per agents folder and plugin selection).

    Args:
        settings: Reads ``agents_dir`` (``REPORTGEN_AGENTS_DIR``) and
            ``plugins`` (``REPORTGEN_PLUGINS``).

    Returns:
        The registry; do not mutate it.

    Raises:
        AgentDefinitionError: An agent folder, spec, prompt or brain name is
            wrong (the message names the file and the field).
        PluginError: A plugin failed to load or clashes with another.
    """
    return _load(str(settings.agents_dir) if settings.agents_dir else None, settings.plugins)
