"""The built-in report and browse-page templates (shipped as ``reportgen.builtin_templates``)."""
