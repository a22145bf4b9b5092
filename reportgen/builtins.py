"""The built-in plugin: reportgen's own agents, brains, search backends, exporters and chart kinds.

It registers through the same hooks as any third-party plugin
(:mod:`reportgen.plugins`), so nothing in the core lists agents, search
modes or export formats by hand.
"""

from __future__ import annotations

from typing import Any, Literal

from reportgen.plugins import hookimpl

__all__ = ["register_agents", "register_brains", "register_chart_kinds", "register_exporters",
           "register_search_backends"]


@hookimpl
def register_agents(register: Any) -> None:
    """The top-level ``agents/`` folder (``reportgen.builtin_agents`` in the wheel)."""
    from reportgen.resources import agents_root

    register(agents_root())


@hookimpl
def register_brains(register: Any) -> None:
    """The extractive and model brains of the browser, plot and writer agents, and the data and MCP brains.

    Registered by import path (:class:`~reportgen.agents.registry.BrainRef`):
    a brain's module, with the model client, LangChain or matplotlib it
    needs, is imported when a run binds the agent, never by reading the
    registry (issue 15: start-up).
    """
    register("browser.extractive", "reportgen.agents.browser:BrowserBrain")
    register("browser.model", "reportgen.agents.model_browser:ModelBrowserBrain")
    register("plot.extractive", "reportgen.agents.plot:PlotBrain")
    register("plot.model", "reportgen.agents.model_plot:ModelPlotBrain")
    register("writer.extractive", "reportgen.agents.writer:WriterBrain")
    register("writer.model", "reportgen.agents.model_writer:ModelWriterBrain")
    register("data.tables", "reportgen.agents.data:DataBrain")
    register("mcp.tool", "reportgen.agents.mcp_tool:McpToolBrain")


@hookimpl
def register_search_backends(register: Any) -> None:
    """``offline`` (the encyclopedia and your folders), ``web`` (ddgs + fetch) and ``auto`` (web, else offline).

    :mod:`reportgen.sources.web` (httpx, lxml) is imported when a run opens its search.
    """

    def factory(mode: Literal["offline", "web", "auto"]) -> Any:
        def open_mode(offline: Any, settings: Any, web: Any) -> Any:
            from reportgen.sources.web import open_search

            return open_search(mode, offline, web=web, settings=settings)

        return open_mode

    modes: tuple[Literal["offline", "web", "auto"], ...] = ("offline", "web", "auto")
    for mode in modes:
        register(mode, factory(mode))


@hookimpl
def register_exporters(register: Any) -> None:
    """The Markdown (with ``figures/``) and Word exports."""
    from reportgen.render.exporters import DOCX, MARKDOWN

    register(MARKDOWN)
    register(DOCX)


@hookimpl
def register_chart_kinds(register: Any) -> None:
    """Bar, line and timeline charts (matplotlib, SVG; imported when first drawn)."""

    def draw_bar(ax: Any, spec: Any) -> None:
        from reportgen.charts import draw

        draw.draw_bar(ax, spec)

    def draw_line(ax: Any, spec: Any) -> None:
        from reportgen.charts import draw

        draw.draw_line(ax, spec)

    def draw_timeline(ax: Any, spec: Any) -> None:
        from reportgen.charts import draw

        draw.draw_timeline(ax, spec)

    register("bar", draw_bar)
    register("line", draw_line)
    register("timeline", draw_timeline)
