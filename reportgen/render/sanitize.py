"""An allowlist for HTML that comes from sources or a model.

Report text is plain text and is escaped by the templates; this is for the
other case, a fragment that *is* markup (a model's formatted answer, Markdown
converted to HTML). :func:`sanitize_html` passes it through `nh3` (the Rust
``ammonia`` sanitizer) with a small allowlist:

* text structure only: paragraphs, emphasis, lists, quotes, code, tables,
  sub/superscript, headings below the report's own (``h3``-``h6``);
* no ``<script>``, ``<style>``, ``<iframe>``, ``<object>``, forms or media
  (script and style are dropped *with* their content);
* no event handlers, no ``style``, ``class`` or ``id`` attributes (the
  fragment cannot restyle the page or clash with the report's anchors);
* links only to absolute ``https://`` URLs with a host: ``http:``,
  ``javascript:``, ``data:``, ``file:``, protocol-relative (``//host``) and
  relative URLs are removed, the link text is kept. Links get
  ``rel="noopener noreferrer nofollow"``;
* no images at all (the PDF renderer would refuse to fetch them anyway).

In user templates the ``safe`` filter is this sanitizer too, so a template
that marks source text as safe still cannot make it live markup.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import nh3
from markupsafe import Markup

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_TAGS", "sanitize_html", "sanitize_markup"]

#: Elements kept (their content is kept for any other element, except
#: :data:`DROPPED_WITH_CONTENT`).
ALLOWED_TAGS: frozenset[str] = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "dl",
    "dt", "em", "h3", "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p",
    "pre", "q", "s", "small", "span", "strong", "sub", "sup", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "u", "ul",
})

#: Attributes kept per element; ``href`` is further limited to https URLs.
ALLOWED_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "title"}),
    "abbr": frozenset({"title"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan", "scope"}),
    "ol": frozenset({"start"}),
}

#: Elements removed together with everything inside them.
DROPPED_WITH_CONTENT: frozenset[str] = frozenset({"script", "style", "template", "noscript"})

_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _https_url(value: str) -> bool:
    if value != value.strip() or any(ch.isspace() for ch in value) or _CONTROL_CHARS.search(value):
        return False
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme.lower() == "https" and bool(parts.hostname)


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "href" and not _https_url(value):
        return None
    return value


def sanitize_html(fragment: str) -> str:
    """Reduce an untrusted HTML fragment to the allowlisted subset.

    Args:
        fragment: HTML from a source or a model (any string; not a whole
            document: ``<html>``/``<body>`` wrappers are dropped).

    Returns:
        HTML that holds only :data:`ALLOWED_TAGS` with
        :data:`ALLOWED_ATTRIBUTES`, whose links are absolute ``https://``
        URLs. Text is kept (escaped where needed); comments are removed.
    """
    text = _CONTROL_CHARS.sub("", str(fragment))
    return nh3.clean(
        text,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=_attribute_filter,
        strip_comments=True,
        link_rel="noopener noreferrer nofollow",
        url_schemes={"https"},
    )


def sanitize_markup(fragment: object) -> Markup:
    """:func:`sanitize_html` as a Jinja filter: the result is marked safe.

    Bound to both ``sanitize`` and ``safe`` in the template environment.
    """
    return Markup(sanitize_html("" if fragment is None else str(fragment)))
