"""The report graph for LangGraph's own tooling (``langgraph.json``: Studio, ``langgraph dev``).

The graph is compiled without a checkpointer: the LangGraph server supplies
its own. Running it needs the run-scoped context (``context=Pipeline(...)``,
see :func:`reportgen.run.generate_report`); the service and the CLI build it.
"""

from reportgen.graph import build_report_graph

__all__ = ["graph"]

#: plan -> dispatch -> coordinate -> render.
graph = build_report_graph()
