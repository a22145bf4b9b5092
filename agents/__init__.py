"""The built-in agent definitions (shipped as ``reportgen.builtin_agents``)."""
