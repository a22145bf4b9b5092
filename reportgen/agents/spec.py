"""Agent specs: the declarative definition that is the single source of truth for an agent.

An agent is a folder holding ``agent.toml`` and, optionally, ``prompts/*.j2``::

    agents/writer/
        agent.toml          name, description, kinds, inputs, outputs, tools,
                            status codes, recovery policy, model role, brains, plan
        prompts/system.j2   prompt templates (Jinja, sandboxed, StrictUndefined)
        prompts/section.j2

The built-in agents live in the top-level ``agents/`` folder (shipped in the
wheel as ``reportgen.builtin_agents``); a user folder (``--agents-dir``,
``REPORTGEN_AGENTS_DIR``) and plugins add or override agents. Everything that
once listed agents by hand — the task graph's nodes, the blueprint validation,
the planner's choice of agents, the agent card's skills — is derived from the
specs (see :mod:`reportgen.agents.registry`).

A spec that cannot be read is refused with :class:`~reportgen.errors.AgentDefinitionError`
naming the file and the field, before any research starts.
"""

from __future__ import annotations

import functools
import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from reportgen.acp import StatusCode
from reportgen.agents.recovery import POLICY, Action, Policy
from reportgen.errors import AgentDefinitionError

if TYPE_CHECKING:
    import jinja2.sandbox

__all__ = [
    "AgentSpec",
    "CodePolicy",
    "FeedSpec",
    "InputSpec",
    "OutputSpec",
    "PlanSpec",
    "RecoverySpec",
    "ToolSpec",
    "load_spec",
    "render_prompt",
]

#: JSON-schema type names an input or output may declare.
ValueType = Literal["string", "integer", "number", "boolean", "array", "object", "any"]

#: The ACP error codes an agent may declare (the paper's 601..607).
ERROR_CODES = frozenset(int(c) for c in StatusCode if c != StatusCode.OK)

_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class InputSpec(_Strict):
    """One typed input of an agent.

    Attributes:
        type: JSON-schema type name (``"any"``: not checked).
        required: A task without it fails with 601 MISSING_REQUIRED_PARAMETERS.
        description: For people and for the agent card's input schema.
    """

    type: ValueType = "any"
    required: bool = False
    description: str = ""

    def accepts(self, value: Any) -> bool:
        """True when ``value`` has the declared type (``None`` is checked by ``required``)."""
        if self.type == "any" or value is None:
            return True
        if self.type in ("integer", "number") and isinstance(value, bool):
            return False
        return isinstance(value, _PYTHON_TYPES[self.type])


class OutputSpec(_Strict):
    """One typed output of an agent.

    Attributes:
        type: JSON-schema type name.
        description: For people and for the agent card.
    """

    type: ValueType = "any"
    description: str = ""


class CodePolicy(_Strict):
    """An agent's own rule for one status code (overrides :data:`~reportgen.agents.recovery.POLICY`).

    Attributes:
        action: ``retry``, ``reroute``, ``amend`` or ``fail``.
        strategy: The strategy of a reroute (e.g. ``broaden``).
        backoff_s: First retry delay in seconds (doubles each retry).
        backoff_cap_s: Longest retry delay in seconds.
    """

    action: Literal["retry", "reroute", "amend", "fail"]
    strategy: str = "default"
    backoff_s: float = Field(default=0.0, ge=0, le=600)
    backoff_cap_s: float = Field(default=0.0, ge=0, le=3600)


class RecoverySpec(_Strict):
    """An agent's recovery policy, the way LangGraph gives each node its ``RetryPolicy``.

    Attributes:
        attempts: Attempt budget of one task of this agent (default: the
            ``REPORTGEN_TASK_ATTEMPTS`` setting).
        codes: Per status code, a rule replacing the default one.
    """

    attempts: int | None = Field(default=None, ge=1, le=20)
    codes: dict[int, CodePolicy] = Field(default_factory=dict)

    @field_validator("codes")
    @classmethod
    def _known_codes(cls, value: dict[int, CodePolicy]) -> dict[int, CodePolicy]:
        unknown = sorted(set(value) - ERROR_CODES)
        if unknown:
            raise ValueError(f"unknown status codes {unknown}; ACP error codes are 601..607")
        return value

    def policy(self) -> dict[StatusCode, Policy]:
        """The full policy table: the defaults with this agent's rules applied."""
        table = dict(POLICY)
        for code, rule in self.codes.items():
            table[StatusCode(code)] = Policy(Action(rule.action), rule.strategy, rule.backoff_s, rule.backoff_cap_s)
        return table


class ToolSpec(_Strict):
    """A tool the agent calls.

    Attributes:
        name: The tool's name, logged as the endpoint of every ``AGENT_REQUEST``.
        kind: ``builtin`` (code of a brain) or ``mcp`` (a tool served by an MCP server).
        command: For ``mcp``: the stdio server's argv.
        url: For ``mcp``: a streamable-HTTP server's URL.
        env: For ``mcp`` stdio servers: extra environment variables.
        tool: For ``mcp``: the server's tool name (default :attr:`name`).
        arguments: For ``mcp``: the tool's arguments, each a template over
            the task's inputs (``"{query}"``).
        timeout_s: Deadline of one call, in seconds (default: the
            ``REPORTGEN_TOOL_TIMEOUT_S`` setting).
    """

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")
    kind: Literal["builtin", "mcp"] = "builtin"
    command: list[str] | None = None
    url: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    tool: str | None = None
    arguments: dict[str, str] = Field(default_factory=dict)
    timeout_s: float | None = Field(default=None, gt=0, le=3600)

    @model_validator(mode="after")
    def _server(self) -> ToolSpec:
        if self.kind == "mcp" and (self.command is None) == (self.url is None):
            raise ValueError("an mcp tool needs exactly one of 'command' (stdio) or 'url' (streamable HTTP)")
        if self.kind == "mcp" and self.command is not None and not self.command:
            raise ValueError("'command' is empty")
        return self


class FeedSpec(_Strict):
    """Where a planned task's output goes: an input of the tasks of another kind in the same scope.

    Attributes:
        kind: The consuming tasks' kind (``chart``, ``write``).
        input: The consumer's input that receives it (always optional: the
            consumer runs without it if this task fails).
        output: This agent's output that feeds it.
    """

    kind: str
    input: str
    output: str


class PlanSpec(_Strict):
    """How the planner adds tasks of an agent that is not one of the pipeline's own kinds.

    Attributes:
        scope: ``section``: one task per body section; ``report``: one per report.
        requires: Conditions for planning it at all: ``local_corpus`` (the
            run searches a folder of the user's documents).
        aim: The task's aim, a template over ``{topic}``, ``{theme}``, ``{n}``.
        inputs: Planner-given input values; strings are templates over
            ``{topic}``, ``{theme}``, ``{n}``, and the string ``"{keywords}"``
            is the section's keyword list.
        feeds: Where its outputs go.
    """

    scope: Literal["section", "report"] = "section"
    requires: list[Literal["local_corpus"]] = Field(default_factory=list)
    aim: str = "{theme}"
    inputs: dict[str, Any] = Field(default_factory=dict)
    feeds: list[FeedSpec] = Field(default_factory=list)


class AgentSpec(_Strict):
    """The declarative definition of one agent.

    Attributes:
        name: The agent's name: the name tasks use in the blueprint and the
            task graph's node name.
        description: What it does, for people and the agent card.
        kinds: The task kinds it serves (``research``, ``chart``, ...).
        inputs: Typed inputs by name.
        outputs: Typed outputs by name.
        tools: The tools it calls (the first is the endpoint logged).
        status_codes: The ACP error codes it may raise.
        recovery: Its recovery policy.
        role: The model role whose model its ``model`` brain uses
            (``REPORTGEN_LLM_<ROLE>_MODEL``, else ``REPORTGEN_LLM_MODEL``);
            ``None``: it never uses a model.
        brains: Brain names by mode: ``extractive`` (no model) and ``model``;
            or one brain for any mode (``default``).
        prompts: Prompt templates by name (from ``prompts/*.j2``).
        plan: How the planner adds its tasks, for agents beyond the
            pipeline's own kinds.
        origin: Where the definition came from (a file path or a plugin name).
        folder: The agent's folder on disk, when it has one (MCP stdio
            servers run there, so relative script paths work).
    """

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    description: str = Field(min_length=1, max_length=1000)
    kinds: list[str] = Field(min_length=1)
    inputs: dict[str, InputSpec] = Field(default_factory=dict)
    outputs: dict[str, OutputSpec] = Field(min_length=1)
    tools: list[ToolSpec] = Field(min_length=1)
    status_codes: list[int] = Field(default_factory=lambda: sorted(ERROR_CODES))
    recovery: RecoverySpec = Field(default_factory=RecoverySpec)
    role: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]{0,31}$")
    brains: dict[Literal["extractive", "model", "default"], str] = Field(min_length=1)
    prompts: dict[str, str] = Field(default_factory=dict)
    plan: PlanSpec | None = None
    origin: str = ""
    folder: str = ""

    @field_validator("status_codes")
    @classmethod
    def _codes(cls, value: list[int]) -> list[int]:
        unknown = sorted(set(value) - ERROR_CODES)
        if unknown:
            raise ValueError(f"unknown status codes {unknown}; ACP error codes are 601..607")
        return sorted(set(value))

    @model_validator(mode="after")
    def _consistent(self) -> AgentSpec:
        if "model" in self.brains and self.role is None:
            raise ValueError("a 'model' brain needs a model 'role'")
        if self.plan is not None:
            for feed in self.plan.feeds:
                if feed.output not in self.outputs:
                    raise ValueError(f"plan.feeds names output {feed.output!r}, which the agent does not declare")
        return self

    @property
    def tool(self) -> str:
        """The name of the agent's first tool (the endpoint of its ``AGENT_REQUEST``)."""
        return self.tools[0].name

    def brain_for(self, model_available: bool) -> tuple[str, str]:
        """Choose the brain of this agent.

        Args:
            model_available: Whether a model is configured for :attr:`role`.

        Returns:
            ``(mode, brain name)``: ``model`` when it has a model brain and a
            model is available, else ``extractive``, else ``default``.
        """
        if model_available and "model" in self.brains:
            return "model", self.brains["model"]
        for mode in ("extractive", "default", "model"):
            if mode in self.brains:
                return mode, self.brains[mode]
        raise AssertionError("brains is never empty")  # pragma: no cover

    def prompt(self, name: str, **values: Any) -> str:
        """Render the prompt template ``name`` with ``values``.

        Args:
            name: A prompt's name (its file name without ``.j2``).
            **values: The template's variables.

        Returns:
            The prompt text, stripped.

        Raises:
            AgentDefinitionError: The agent has no such prompt, or it uses a
                variable that was not given.
        """
        source = self.prompts.get(name)
        if source is None:
            raise AgentDefinitionError(f"{self.origin or self.name}: the agent has no prompt {name!r}")
        return render_prompt(source, f"{self.origin or self.name}: prompt {name!r}", **values)

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the agent's inputs (for its agent-card skill)."""
        props = {
            name: {**({"type": spec.type} if spec.type != "any" else {}), "description": spec.description}
            for name, spec in self.inputs.items()
        }
        required = sorted(name for name, spec in self.inputs.items() if spec.required)
        return {"type": "object", "properties": props, "required": required}


@functools.cache
def _prompts() -> jinja2.sandbox.ImmutableSandboxedEnvironment:
    """Prompts render in Jinja's sandbox: a user's agent folder is data, not code.

    Built on first use: reading the registry (``reportgen plugins``, the
    agent card) does not import Jinja (issue 15: start-up).
    """
    import jinja2.sandbox

    return jinja2.sandbox.ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                                                        keep_trailing_newline=False)


def render_prompt(source: str, where: str, **values: Any) -> str:
    """Render a prompt template in the sandbox.

    Args:
        source: The template text.
        where: How the prompt is named in errors (file and prompt name).
        **values: The template's variables.

    Returns:
        The prompt, stripped.

    Raises:
        AgentDefinitionError: The template is broken or uses a variable not given.
    """
    import jinja2

    try:
        return _prompts().from_string(source).render(**values).strip()
    except jinja2.TemplateError as exc:
        raise AgentDefinitionError(f"{where}: {exc}") from exc


def _check_prompt(text: str, where: str, name: str) -> None:
    """Raise :class:`AgentDefinitionError` naming the file and line if ``text`` is not a valid template."""
    import jinja2

    try:
        _prompts().parse(text)
    except jinja2.TemplateSyntaxError as exc:
        raise AgentDefinitionError(f"{where}: prompts/{name}, line {exc.lineno}: {exc.message}") from None


def load_spec(folder: Path | Traversable, *, origin: str | None = None, trusted: bool = False) -> AgentSpec:
    """Read one agent folder: ``agent.toml`` and its ``prompts/*.j2``.

    Args:
        folder: The agent's folder (a path, or a package resource).
        origin: How the definition is named in errors (default the file's path).
        trusted: A built-in definition, whose prompts the test suite parses
            (``tests/test_registry.py``): they are not parsed again here, so
            reading the registry needs no Jinja. Every other folder's prompts
            are checked now, before any research.

    Returns:
        The validated spec.

    Raises:
        AgentDefinitionError: The file is missing, is not TOML, or a field
            is wrong; the message names the file and the field.
    """
    file = folder / "agent.toml"
    where = origin or str(file)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AgentDefinitionError(f"{where}: no such file (an agent folder holds agent.toml)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentDefinitionError(f"{where}: cannot read it: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise AgentDefinitionError(f"{where}: not valid TOML: {exc}") from None
    prompts: dict[str, str] = {}
    prompt_dir = folder / "prompts"
    if prompt_dir.is_dir():
        for item in sorted(prompt_dir.iterdir(), key=lambda t: t.name):
            if item.name.endswith(".j2") and item.is_file():
                text = item.read_text(encoding="utf-8")
                if not trusted:
                    _check_prompt(text, where, item.name)
                prompts[item.name.removesuffix(".j2")] = text
    reserved = [k for k in ("prompts", "origin", "folder") if k in data]
    if reserved:
        raise AgentDefinitionError(f"{where}: field {reserved[0]!r}: not a field of agent.toml "
                                   "(prompts are files in prompts/*.j2)")
    try:
        folder_path = str(folder) if isinstance(folder, Path) else ""
        return AgentSpec.model_validate({**data, "prompts": prompts, "origin": where, "folder": folder_path})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(x) for x in first["loc"]) or "(top level)"
        raise AgentDefinitionError(f"{where}: field {field!r}: {first['msg'].removeprefix('Value error, ')}") from None
