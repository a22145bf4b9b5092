"""Users and their API keys: ``reportgen keys create|list|revoke``, checked on every request.

A user is a name; a key is a random secret given to that user once, when it
is created, and stored only as its SHA-256 digest. A user holds at most one
live key (revoke it to issue another); revoking keeps the user's reports,
which a new key of the same name sees again. An *admin* sees and touches every
user's reports; a user only their own.

Why SHA-256 and no slow KDF: a key is 32 random bytes (256 bits, the size the
Python ``secrets`` documentation recommends for tokens), so it cannot be
guessed; a slow, salted KDF (PBKDF2, scrypt, Argon2) defends *low-entropy*
secrets such as passwords against offline guessing (NIST SP 800-63B §5.1.1.2
asks it of memorized secrets, not of random tokens). A plain digest of a
high-entropy token is what django-rest-knox stores too ("only stored in a
secure hash form", its README); it also lets a request's key be found by an
indexed lookup rather than by trying every stored hash.

The keys live in the service database (``Settings.database``: the SQLite
file beside the jobs, or PostgreSQL, so every API replica sees the same
keys) in a table of their own, ``api_keys`` (migration ``m006_api_keys`` of
:mod:`reportgen.store`). :class:`KeyStore` is the one place that reads and
writes it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.exc import IntegrityError

from reportgen.errors import InputError
from reportgen.store import Database

__all__ = ["ApiKey", "KEY_PREFIX", "KeyStore", "NAME_PATTERN", "key_digest"]

#: A user name: lower-case letters, digits, ``.``, ``_`` and ``-``, 1..64 characters.
NAME_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"

#: Every key starts so (secret scanners and people can tell what it is).
KEY_PREFIX = "rgk_"

#: Random bytes in a key (256 bits; Python ``secrets`` docs: 32 bytes is enough for tokens).
KEY_BYTES = 32

def key_digest(key: str) -> str:
    """The stored form of ``key``: its SHA-256, in hex.

    Args:
        key: A presented key (any text; lone surrogates are kept, not refused).

    Returns:
        64 hex digits.
    """
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    """One user's key as stored (never the key itself).

    Attributes:
        name: The user.
        admin: Whether the user sees every user's reports.
        hint: The key's first characters (``rgk_ab12``), to tell keys apart in ``keys list``.
        created_at: When it was created (UTC).
        revoked_at: When it was revoked, or ``None`` while it works.
    """

    name: str
    admin: bool
    hint: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def client(self) -> str:
        """The identity the user's jobs, caps and rate limits are recorded under: ``"user:<name>"``."""
        return f"user:{self.name}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class KeyStore(Database):
    """The users' keys in the service database (SQLite or PostgreSQL, table ``api_keys``).

    Args:
        database: ``Settings.database`` (a URL) or a SQLite file path; migrated when opened.
    """

    def create(self, name: str, *, admin: bool = False) -> str:
        """Create a key for user ``name``.

        Args:
            name: The user (:data:`NAME_PATTERN`).
            admin: Whether the user sees and touches every user's reports.

        Returns:
            The key (``rgk_`` and 43 URL-safe characters); it is not stored
            and cannot be shown again.

        Raises:
            InputError: The name is not valid, or the user already holds a live key.
        """
        if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name):
            raise InputError(f"user name {name!r}: use 1 to 64 lower-case letters, digits, '.', '_' or '-', "
                             "starting with a letter or digit")
        key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
        try:
            self._write(
                "INSERT INTO api_keys (digest, name, hint, admin, created_at) "
                "VALUES (:digest, :name, :hint, :admin, :created)",
                digest=key_digest(key), name=name, hint=key[: len(KEY_PREFIX) + 4], admin=int(admin),
                created=_now(),
            )
        except IntegrityError:
            raise InputError(f"user {name!r} already has a key; revoke it first "
                             f"(reportgen keys revoke {name})") from None
        return key

    def lookup(self, key: str) -> ApiKey | None:
        """The live key ``key`` is, or ``None`` (unknown or revoked).

        Args:
            key: The key a request presented.
        """
        row = self._one("SELECT * FROM api_keys WHERE digest = :d AND revoked_at IS NULL", d=key_digest(key))
        return _key(row) if row is not None else None

    def has_keys(self) -> bool:
        """Whether any live key exists (then every request must carry a key)."""
        return self._one("SELECT 1 AS one FROM api_keys WHERE revoked_at IS NULL LIMIT 1") is not None

    def list(self, *, revoked: bool = False) -> list[ApiKey]:
        """The keys by user name; with ``revoked``, revoked ones too (oldest first per name)."""
        where = "" if revoked else "WHERE revoked_at IS NULL"
        return [_key(r) for r in self._all(f"SELECT * FROM api_keys {where} ORDER BY name, created_at")]

    def revoke(self, name: str) -> bool:
        """Revoke user ``name``'s live key; ``False`` when it had none. The user's reports stay."""
        return self._write("UPDATE api_keys SET revoked_at = :now WHERE name = :name AND revoked_at IS NULL",
                           now=_now(), name=name) > 0


def _key(row: Any) -> ApiKey:
    return ApiKey(
        name=row["name"], admin=bool(row["admin"]), hint=row["hint"],
        created_at=datetime.fromisoformat(row["created_at"]),
        revoked_at=datetime.fromisoformat(row["revoked_at"]) if row["revoked_at"] else None,
    )
