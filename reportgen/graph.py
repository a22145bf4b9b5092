"""LangGraph wiring only: the report graph and the task graph.

The report graph reads like the pipeline::

    plan ──► review ──► dispatch ──► coordinate ──► render
               ▲  │ (guidance: plan again, review again)
               └──┘

``review`` passes straight through unless the run asked for plan review
(:mod:`reportgen.review`): then it stops with LangGraph's ``interrupt`` until
a reviewer answers.

``dispatch`` runs each task of the execution blueprint as one invocation of the
task graph, as soon as that task's own dependencies are done (see
:mod:`reportgen.dispatch` for why this is not a ``Send`` fan-out)::

    START ──► <one node per registered agent> ──(200)──► END
                     ▲        │
                     │   (601..607)
                     │        ▼
                     └──── recovery ──(fail)──► END

Both graphs are checkpointed in one SQLite database: the report graph under
the thread ``<report-id>``, each task under ``<report-id>/<task-id>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from reportgen.agents.nodes import TaskGraph, TaskState, agent_node, recovery_node
from reportgen.agents.runtime import RunContext
from reportgen.pipeline import Pipeline, ReportState, coordinate_node, dispatch_node, plan_node, render_node
from reportgen.review import review_node

__all__ = ["build_report_graph", "build_task_graph", "default_agents", "mermaid"]


def default_agents() -> dict[str, Any]:
    """The registered agents with their extractive brains (default settings, no model)."""
    from reportgen.agents.registry import load_registry
    from reportgen.config import get_settings

    settings = get_settings()
    return load_registry(settings).bind(settings, None)


def _route_to_agent(state: TaskState) -> str:
    agent: str = state["task"]["agent"]
    return agent


def build_task_graph(checkpointer: Any = None, agents: Mapping[str, Any] | None = None) -> TaskGraph:
    """Compile the graph that runs one task: agent attempts and recovery.

    One node per registered agent (its name is the node's name), derived from
    the registry — adding an agent to the registry adds its node.

    Args:
        checkpointer: A LangGraph checkpointer (``None`` for none).
        agents: Runnable agents by name (:meth:`Registry.bind
            <reportgen.agents.registry.Registry.bind>`); default
            :func:`default_agents`.

    Returns:
        The compiled graph; invoke it with a :class:`TaskState` and
        ``context=RunContext(...)``.
    """
    agents = dict(agents) if agents is not None else default_agents()
    builder = StateGraph(TaskState, context_schema=RunContext)
    for name, agent in agents.items():
        builder.add_node(name, agent_node(agent), destinations=("recovery", END))  # one attempt, 3 ACP phases
    builder.add_node("recovery", recovery_node(agents),                              # answers ASSISTANCE_REQUESTs
                     destinations=(*agents, END))
    builder.add_conditional_edges(START, _route_to_agent, list(agents))
    return builder.compile(checkpointer=checkpointer, name="task")


def build_report_graph(
    checkpointer: Any = None,
) -> CompiledStateGraph[ReportState, Pipeline, ReportState, ReportState]:
    """Compile the report graph: plan → review → dispatch → coordinate → render.

    Args:
        checkpointer: A LangGraph checkpointer (``None`` for none).

    Returns:
        The compiled graph; invoke it with ``{"report_id": ...}`` and
        ``context=Pipeline(...)``.
    """
    builder = StateGraph(ReportState, context_schema=Pipeline)
    builder.add_node("plan", plan_node)              # topic -> execution blueprint
    builder.add_node("review", review_node,          # plan review (interrupt) when asked for
                     destinations=("dispatch", "review"))
    builder.add_node("dispatch", dispatch_node)      # runs tasks through the task graph
    builder.add_node("coordinate", coordinate_node)  # outputs -> Report (citations, figures)
    builder.add_node("render", render_node)          # Report -> HTML, PDF, JSON
    builder.add_edge(START, "plan")
    builder.add_edge("plan", "review")
    builder.add_edge("dispatch", "coordinate")
    builder.add_edge("coordinate", "render")
    return builder.compile(checkpointer=checkpointer, name="report")


def mermaid() -> str:
    """Both graphs as one mermaid document (report graph first, then the task graph)."""
    return (
        "%% report graph\n"
        + build_report_graph().get_graph().draw_mermaid()
        + "\n%% task graph (run by dispatch once per task)\n"
        + build_task_graph().get_graph().draw_mermaid()
    )
