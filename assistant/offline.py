"""No network: an audit hook that refuses outgoing connections and name lookups.

Once :func:`forbid_network` has run, any Python code in the process that tries to
connect a socket, send a datagram, look up a host name or listen on a public address
gets a :class:`PermissionError`; the attempt is logged and recorded in :data:`attempts`.
Only the hosts passed in ``allow`` (a remote LLM server the administrator configured)
and local (Unix) sockets stay reachable. Audit hooks cannot be removed; :func:`allow_network`
turns the check off again (for tests).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
import threading
from typing import Any, Iterable

log = logging.getLogger(__name__)

attempts: list[tuple[str, str]] = []
"""(audit event, host) of every refused attempt."""

_allowed: frozenset[str] | None = None
"""Reachable hosts and addresses; None while the guard is off."""
_installed = False
_lock = threading.Lock()


def forbid_network(allow: Iterable[str] = ()) -> None:
    """Refuse network access from now on, except to the hosts in ``allow``."""
    global _allowed, _installed
    hosts = set()
    for host in allow:
        hosts.add(host)
        try:
            hosts.update(str(info[4][0]) for info in socket.getaddrinfo(host, None))
        except OSError:
            pass  # it may resolve later; its name stays allowed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
        _allowed = frozenset(hosts)


def allow_network() -> None:
    global _allowed
    _allowed = None


def network_forbidden() -> bool:
    return _allowed is not None


def _host(event: str, args: tuple[Any, ...]) -> str | None:
    """The remote host an audited socket operation reaches; None when it is local."""
    if event == "socket.getaddrinfo":
        host = args[0]
        return None if host is None else host.decode() if isinstance(host, bytes) else str(host)
    if event in ("socket.connect", "socket.sendto", "socket.bind"):
        sock, address = args[0], args[1]
        if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple):
            return None
        host = str(address[0])
        if event == "socket.bind" and _is_loopback(host):
            return None
        return host
    return None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _hook(event: str, args: tuple[Any, ...]) -> None:
    allowed = _allowed
    if allowed is None or not event.startswith("socket."):
        return
    host = _host(event, args)
    if host is None or host in allowed:
        return
    attempts.append((event, host))
    log.warning("network access refused: %s to %s", event, host)
    raise PermissionError(f"network access is off ({event} to {host} refused)")
