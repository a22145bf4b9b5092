"""A2A push notifications: webhooks with the client's credentials, retries with backoff, SSRF defence.

A client registers a webhook for a task (``CreateTaskPushNotificationConfig``,
or ``configuration.taskPushNotificationConfig`` in ``SendMessage``) with its
``url``, an optional ``token`` (sent as ``X-A2A-Notification-Token``) and
optional ``authentication`` (``scheme`` + ``credentials``, sent as
``Authorization: <scheme> <credentials>``); the configs live in the SDK's SQL
store beside the tasks. Each task update is POSTed to every webhook of its task.

- **Retries**: a delivery that fails (network error or an error status)
  is tried again up to :data:`PUSH_ATTEMPTS` times in all, waiting
  :data:`PUSH_BACKOFF_S` seconds, then twice that, and so on.
- **SSRF defence**: a webhook URL must be ``http``/``https``. When it is
  registered (``InvalidParams`` otherwise) its host must not be ``localhost``
  or a literal loopback, private, link-local, shared, reserved, multicast or
  unspecified address; before each delivery the host is resolved and every
  address it resolves to must pass the same rule (the SDK's
  :func:`~a2a.utils.push_url_validator.validate_push_notification_url`,
  failing closed when the name does not resolve), so a name that points
  inside, or is re-pointed there later, is refused too. Only
  ``allow_private=True`` (tests, a private deployment) lifts the address
  rule; the scheme rule stays.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

from a2a.server.tasks import BasePushNotificationSender

__all__ = ["PUSH_ATTEMPTS", "PUSH_BACKOFF_S", "PushSender", "push_url_policy"]

logger = logging.getLogger(__name__)

#: Delivery attempts per webhook and event, the first included.
PUSH_ATTEMPTS = 4

#: Wait before the first retry, in seconds; it doubles each time.
PUSH_BACKOFF_S = 0.5


def _internal(host: str) -> bool:
    """True for ``localhost`` names and literal addresses that are not public."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False  # a name: judged by what it resolves to, at delivery
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (address.is_private or address.is_loopback or address.is_link_local or address.is_reserved
            or address.is_multicast or address.is_unspecified or address in _SHARED)


_SHARED = ipaddress.ip_network("100.64.0.0/10")


def push_url_policy(*, allow_private: bool = False, resolve: bool = True) -> Callable[[str], Awaitable[bool]]:
    """The webhook URL check.

    Args:
        allow_private: Accept loopback, private and link-local hosts too.
        resolve: Resolve the host and judge its addresses (before a delivery);
            ``False`` judges the URL as written (when it is registered).

    Returns:
        An async callable: ``True`` when the URL may be called.
    """
    from a2a.utils.push_url_validator import validate_push_notification_url

    async def allowed(url: str) -> bool:
        try:
            parts = urllib.parse.urlsplit(url)
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        if allow_private:
            return True
        if _internal(parts.hostname):
            return False
        return await validate_push_notification_url(url) if resolve else True

    return allowed


class PushSender(BasePushNotificationSender):
    """The SDK's sender, with retries and backoff on each delivery.

    Args:
        httpx_client: The HTTP client (redirects off: a redirect could lead past the address check).
        config_store: The push-config store.
        push_url_validator: The URL check (:func:`push_url_policy`).
        attempts: Delivery attempts per webhook and event.
        backoff_s: Wait before the first retry, doubling after each.
    """

    def __init__(
        self,
        httpx_client: Any,
        config_store: Any,
        *,
        push_url_validator: Callable[[str], Awaitable[bool]],
        attempts: int = PUSH_ATTEMPTS,
        backoff_s: float = PUSH_BACKOFF_S,
    ) -> None:
        super().__init__(httpx_client, config_store, push_url_validator=push_url_validator)
        self.client = httpx_client
        self.attempts = attempts
        self.backoff_s = backoff_s

    async def _dispatch_notification(self, event: Any, push_info: Any, task_id: str) -> bool:
        delay = self.backoff_s
        for attempt in range(1, self.attempts + 1):
            if await super()._dispatch_notification(event, push_info, task_id):
                return True
            if self._push_url_validator is not None and not await self._push_url_validator(push_info.url):
                return False  # refused, not failed: no retry
            if attempt < self.attempts:
                logger.info("push to %s for task %s failed (attempt %d); retrying in %.1f s",
                            push_info.url, task_id, attempt, delay)
                await asyncio.sleep(delay)
                delay *= 2
        return False

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.client.aclose()
