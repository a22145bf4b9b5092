"""LangGraph wiring only: the report graph and the task graph.

The report graph reads like the pipeline::

    plan ──► dispatch ──► coordinate ──► render

``dispatch`` runs each task of the execution blueprint as one invocation of the
task graph, as soon as that task's own dependencies are done (see
:mod:`reportgen.dispatch` for why this is not a ``Send`` fan-out)::

    START ──► browser | plot | writer ──(200)──► END
                     ▲        │
                     │   (601..607)
                     │        ▼
                     └──── recovery ──(fail)──► END

Both graphs are checkpointed in one SQLite database: the report graph under
the thread ``<report-id>``, each task under ``<report-id>/<task-id>``.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from reportgen.agents.browser import BrowserAgent
from reportgen.agents.nodes import TaskState, agent_node, recovery_node
from reportgen.agents.model_browser import ModelBrowserAgent
from reportgen.agents.model_plot import ModelPlotAgent
from reportgen.agents.model_writer import ModelWriterAgent
from reportgen.agents.plot import PlotAgent
from reportgen.agents.runtime import Agent, RunContext
from reportgen.agents.writer import WriterAgent
from reportgen.pipeline import Pipeline, ReportState, coordinate_node, dispatch_node, plan_node, render_node

__all__ = ["AGENTS", "MODEL_AGENTS", "build_report_graph", "build_task_graph", "mermaid"]

#: The registered agents, by name (the names tasks use in the blueprint):
#: extractive mode, and the model-driven agents used when a model is configured.
AGENTS: dict[str, Agent] = {a.name: a for a in (BrowserAgent(), PlotAgent(), WriterAgent())}
MODEL_AGENTS: dict[str, Agent] = {a.name: a for a in (ModelBrowserAgent(), ModelPlotAgent(), ModelWriterAgent())}


def _route_to_agent(state: TaskState) -> str:
    return state["task"]["agent"]


def build_task_graph(checkpointer: Any = None, agents: dict[str, Agent] | None = None) -> CompiledStateGraph:
    """Compile the graph that runs one task: agent attempts and recovery.

    Args:
        checkpointer: A LangGraph checkpointer (``None`` for none).
        agents: Agents by name; default :data:`AGENTS`.

    Returns:
        The compiled graph; invoke it with a :class:`TaskState` and
        ``context=RunContext(...)``.
    """
    agents = agents or AGENTS
    builder = StateGraph(TaskState, context_schema=RunContext)
    builder.add_node("browser", agent_node(agents["browser"]))   # search + read
    builder.add_node("plot", agent_node(agents["plot"]))         # numbers -> chart
    builder.add_node("writer", agent_node(agents["writer"]))     # sentences -> section
    builder.add_node("recovery", recovery_node)                  # answers ASSISTANCE_REQUESTs
    builder.add_conditional_edges(START, _route_to_agent, ["browser", "plot", "writer"])
    return builder.compile(checkpointer=checkpointer, name="task")


def build_report_graph(checkpointer: Any = None) -> CompiledStateGraph:
    """Compile the report graph: plan → dispatch → coordinate → render.

    Args:
        checkpointer: A LangGraph checkpointer (``None`` for none).

    Returns:
        The compiled graph; invoke it with ``{"report_id": ...}`` and
        ``context=Pipeline(...)``.
    """
    builder = StateGraph(ReportState, context_schema=Pipeline)
    builder.add_node("plan", plan_node)              # topic -> execution blueprint
    builder.add_node("dispatch", dispatch_node)      # runs tasks through the task graph
    builder.add_node("coordinate", coordinate_node)  # outputs -> Report (citations, figures)
    builder.add_node("render", render_node)          # Report -> HTML, PDF, JSON
    builder.add_edge(START, "plan")
    builder.add_edge("plan", "dispatch")
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
