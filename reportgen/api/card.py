"""The service's agent cards: who it is, what it does, how to call it.

Two documents describe the same agent:

- ``/.well-known/agent.json`` — the legacy place of the card, in the A2A 0.3
  form (``protocolVersion`` ``0.3.0``, ``url`` the JSON-RPC endpoint, which
  serves 0.3 requests beside 1.0 ones): name, description, version,
  capabilities, and the ``generate-report`` skill with the JSON Schema of its
  input (:class:`~reportgen.worker.ReportRequest`), plus the REST and A2A
  endpoints and the corpus and template names offered.
- ``/.well-known/agent-card.json`` — the official A2A 1.0 ``AgentCard``
  (protobuf, built with ``a2a-sdk``), where A2A clients look first; its
  interface is the JSON-RPC endpoint ``/a2a``. It lists only 1.0: a 0.3
  interface would add the 0.3 fields, which the 1.0 card schema refuses; 0.3
  clients read the legacy card instead.

Neither needs the API key: discovery comes before credentials. Besides the
``generate-report`` skill, each card lists one skill per registered agent
(built-in, plugin or user folder), derived from the agent registry: the
registry is the one source of what the service can do.
"""

from __future__ import annotations

from typing import Any

from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    APIKeySecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)
from a2a.utils.constants import PROTOCOL_VERSION_CURRENT, TransportProtocol

from reportgen.config import Settings

__all__ = ["A2A_PATH", "SKILL_ID", "a2a_agent_card", "a2a_agent_card_json", "agent_card", "agent_skills"]

#: Path of the A2A JSON-RPC endpoint.
A2A_PATH = "/a2a"

#: The one skill.
SKILL_ID = "generate-report"

#: The protocol version of the legacy card (``/.well-known/agent.json``): the 0.3 form.
LEGACY_PROTOCOL_VERSION = "0.3.0"

NAME = "reportgen"
DESCRIPTION = (
    "Writes cited, charted reports on a topic: a planner compiles an execution blueprint of "
    "research, chart and writing tasks, agents run it, and a coordination layer renders HTML "
    "and PDF. Every sentence is quoted from a retrieved source and cited."
)
SKILL_NAME = "Generate a report"
SKILL_DESCRIPTION = (
    "Research a topic in the server's corpora and return the report as HTML, PDF and JSON. "
    "Send the topic as text; options (lang, sections, corpus, wiki, template, appendix, guidance) "
    "as a data part."
)
TAGS = ["report", "research", "citations", "charts", "pdf"]
EXAMPLES = ["Renewable energy", "Énergie renouvelable", "Heat pumps"]
INPUT_MODES = ["text/plain", "application/json"]
OUTPUT_MODES = ["text/html", "application/pdf", "application/json"]


def _version() -> str:
    from reportgen import __version__

    return __version__


def agent_skills(settings: Settings) -> list[dict[str, Any]]:
    """One skill per registered agent: ``{"id", "name", "description", "tags", "inputSchema"}``.

    Args:
        settings: Select the agent folder and plugins (``REPORTGEN_AGENTS_DIR``, ``REPORTGEN_PLUGINS``).

    Raises:
        AgentDefinitionError: An agent definition is broken.
        PluginError: A plugin failed to load.
    """
    from reportgen.agents.registry import load_registry

    return [
        {"id": f"agent-{spec.name}", "name": f"{spec.name} agent", "description": spec.description,
         "tags": ["agent", *spec.kinds], "inputSchema": spec.input_schema()}
        for spec in load_registry(settings).agents.values()
    ]


def _keyed(settings: Settings, keyed: bool | None) -> bool:
    if keyed is not None:
        return keyed
    return bool(settings.api_key and settings.api_key.get_secret_value())


def agent_card(settings: Settings, base_url: str, templates: list[str], *, keyed: bool | None = None) -> dict[str, Any]:
    """The A2A-style card served at ``/.well-known/agent.json``.

    Args:
        settings: What the server offers (corpus names, whether an API key
            is required).
        base_url: The service's URL, without a trailing slash.
        templates: The template names the server offers.
        keyed: Whether requests need a key (users' keys exist); default:
            whether ``settings.api_key`` is set.
    """
    from reportgen.worker import ReportRequest

    card: dict[str, Any] = {
        "name": NAME,
        "description": DESCRIPTION,
        "version": _version(),
        "url": f"{base_url}{A2A_PATH}",
        "preferredTransport": TransportProtocol.JSONRPC.value,
        "documentationUrl": f"{base_url}/docs",
        "protocolVersion": LEGACY_PROTOCOL_VERSION,
        "capabilities": {"streaming": True, "pushNotifications": True, "stateTransitionHistory": False},
        "defaultInputModes": INPUT_MODES,
        "defaultOutputModes": OUTPUT_MODES,
        "endpoints": {
            "reports": f"{base_url}/reports",
            "events": f"{base_url}/reports/{{id}}/events",
            "a2a": f"{base_url}{A2A_PATH}",
            "a2aAgentCard": f"{base_url}/.well-known/agent-card.json",
            "openapi": f"{base_url}/openapi.json",
        },
        "skills": [
            {
                "id": SKILL_ID,
                "name": SKILL_NAME,
                "description": SKILL_DESCRIPTION,
                "tags": TAGS,
                "examples": EXAMPLES,
                "inputModes": INPUT_MODES,
                "outputModes": OUTPUT_MODES,
                "inputSchema": ReportRequest.model_json_schema(),
            },
            *agent_skills(settings),
        ],
        "corpora": sorted(settings.corpora),
        "templates": templates,
    }
    if _keyed(settings, keyed):
        card["securitySchemes"] = {
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "bearer": {"type": "http", "scheme": "bearer"},
        }
        card["security"] = [{"apiKey": []}, {"bearer": []}]
    return card


def a2a_agent_card(settings: Settings, base_url: str, *, keyed: bool | None = None) -> AgentCard:
    """The official A2A ``AgentCard`` (served at ``/.well-known/agent-card.json``).

    Args:
        settings: What the server offers.
        base_url: The service's URL, without a trailing slash.
        keyed: Whether requests need a key; default: whether ``settings.api_key`` is set.
    """
    card = AgentCard(
        name=NAME,
        description=DESCRIPTION,
        version=_version(),
        documentation_url=f"{base_url}/docs",
        provider=AgentProvider(organization=NAME, url=base_url),
        supported_interfaces=[
            AgentInterface(
                url=f"{base_url}{A2A_PATH}",
                protocol_binding=TransportProtocol.JSONRPC.value,
                protocol_version=PROTOCOL_VERSION_CURRENT,
            ),
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=INPUT_MODES,
        default_output_modes=OUTPUT_MODES,
        skills=[
            AgentSkill(
                id=SKILL_ID, name=SKILL_NAME, description=SKILL_DESCRIPTION, tags=TAGS,
                examples=EXAMPLES, input_modes=INPUT_MODES, output_modes=OUTPUT_MODES,
            ),
            *(AgentSkill(id=skill["id"], name=skill["name"], description=skill["description"], tags=skill["tags"],
                         input_modes=["application/json"], output_modes=["application/json"])
              for skill in agent_skills(settings)),
        ],
    )
    if _keyed(settings, keyed):
        card.security_schemes["apiKey"].CopyFrom(SecurityScheme(
            api_key_security_scheme=APIKeySecurityScheme(location="header", name="X-API-Key"),
        ))
        card.security_requirements.append(SecurityRequirement(schemes={"apiKey": StringList(list=[])}))
    return card


def a2a_agent_card_json(settings: Settings, base_url: str) -> dict[str, Any]:
    """The A2A 1.0 card as JSON (protobuf's JSON mapping), what ``reportgen card`` prints.

    The service's ``/.well-known/agent-card.json`` serves this plus the 0.3
    compatibility fields a2a-sdk merges in (``agent_card_to_dict``, which
    imports a2a-sdk's whole server stack: a second of start-up).

    Args:
        settings: As for :func:`a2a_agent_card`.
        base_url: The service's URL, without a trailing slash.
    """
    from google.protobuf.json_format import MessageToDict

    document: dict[str, Any] = MessageToDict(a2a_agent_card(settings, base_url))
    return document
