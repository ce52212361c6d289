"""No network: the strongest guarantee this machine allows, and a record of what was refused.

:func:`secure` makes the process offline for good, in one of two ways:

- **Network namespace** (Linux, where unprivileged user namespaces are allowed): the
  process runs in a namespace of its own with no interface but loopback (see
  :mod:`assistant.offline.netns`). Nothing in it can reach a network, Python or native code, and
  neither can any child process.
- **Audit hook** (Windows, macOS, Linux without user namespaces, or a remote LLM server on
  the network that the administrator allowed): a Python audit hook refuses every socket
  operation that reaches a host, except the allowed ones. It sees Python's calls only.

The hook is installed in both cases: inside the namespace it turns an attempt into a clear
:class:`PermissionError` and records it. Refused attempts are logged and kept in
:data:`attempts`. Audit hooks cannot be removed; :func:`allow_network` turns the check off
again (for tests).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable
from urllib.parse import urlparse

from assistant.offline import netns
from assistant.config import Config

log = logging.getLogger(__name__)

attempts: list[tuple[str, str]] = []
"""(audit event, host) of every refused attempt."""

LOOKUP_EVENTS = ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.getnameinfo")
"""Name and address lookups (``gethostbyname_ex`` raises ``socket.gethostbyname``)."""
ADDRESS_EVENTS = ("socket.connect", "socket.sendto", "socket.sendmsg", "socket.bind")
"""Socket operations given a peer address (``connect_ex`` raises ``socket.connect``)."""
INTERNET = (socket.AF_INET, socket.AF_INET6)
RAW_FAMILIES = tuple(f for f in (getattr(socket, "AF_PACKET", None),) if f is not None)
"""Link-level sockets, which reach the wire without an IP address."""
RESOLVE_EVERY_S = 30.0

_allowed_names: frozenset[str] | None = None
"""Reachable host names; None while the guard is off."""
_allowed_addresses: set[str] = set()
_resolved_at = 0.0
_installed = False
_lock = threading.Lock()


# ---------------------------------------------------------------- the guarantee


NAMESPACE = "network namespace"
AUDIT_HOOK = "audit hook"
NONE = "none"


@dataclass(frozen=True)
class Guarantee:
    kind: str
    """:data:`NAMESPACE`, :data:`AUDIT_HOOK` or :data:`NONE`."""
    why: str = ""
    """Why the namespace is not used (for the audit hook)."""
    allowed: tuple[str, ...] = ()
    """Hosts still reachable (a remote LLM server)."""

    @property
    def summary(self) -> str:
        """A few words for a status line."""
        if self.kind == NAMESPACE:
            return "Offline: own network namespace (no code can reach a network)"
        if self.kind == AUDIT_HOOK:
            return "Offline: Python audit hook only" + (f" ({', '.join(self.allowed)} allowed)" if self.allowed else "")
        return "Network not restricted"

    def describe(self) -> str:
        if self.kind == NAMESPACE:
            return ("offline: own network namespace with only loopback; no code in the process "
                    "(Python or native) and no child process can reach a network")
        if self.kind == AUDIT_HOOK:
            allowed = f"; allowed: {', '.join(self.allowed)}" if self.allowed else ""
            return (f"offline: Python audit hook only (Python's connections, datagrams and lookups are refused; "
                    f"native code is not covered){allowed}; {self.why}")
        return "network not restricted (run with --offline, or as a kiosk)"


_guarantee = Guarantee(NONE)


def guarantee() -> Guarantee:
    """What keeps this process offline now."""
    return _guarantee


def allowed_hosts(config: Config) -> list[str]:
    """The only hosts an offline run may reach: the remote LLM server, when one is configured."""
    if config.llm.backend != "remote":
        return []
    host = urlparse(config.llm.remote_url).hostname
    return [host] if host else []


def secure(config: Config, argv: list[str]) -> Guarantee:
    """Make this process offline as firmly as this machine allows.

    On Linux, a process not yet isolated is started again (``argv``, same program) inside
    its own network namespace: this call then does not return. A configured remote LLM
    server needs the machine's network, so then the namespace is skipped and the audit hook
    lets exactly that host through.
    """
    global _guarantee
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    hosts = allowed_hosts(config)
    if hosts:
        why = f"the namespace is skipped because the remote LLM server {hosts[0]} must stay reachable"
        _guarantee = Guarantee(AUDIT_HOOK, why, tuple(hosts))
    elif netns.inside():
        _guarantee = Guarantee(NAMESPACE)
    elif netns.supported() and netns.failure() is None:
        netns.relaunch_isolated(argv)
    else:
        why = netns.failure() or f"{sys.platform} has no network namespaces"
        _guarantee = Guarantee(AUDIT_HOOK, f"no namespace: {why}")
    forbid_network(hosts)
    log.info("%s", _guarantee.describe())
    return _guarantee


def expected(config: Config) -> Guarantee:
    """The guarantee an offline run with ``config`` would get on this machine (checked by
    starting a process that isolates itself)."""
    if _guarantee.kind != NONE:
        return _guarantee
    hosts = allowed_hosts(config)
    if hosts:
        return Guarantee(AUDIT_HOOK, f"the namespace is skipped because the remote LLM server {hosts[0]} "
                         "must stay reachable", tuple(hosts))
    why = netns.probe()
    return Guarantee(NAMESPACE) if why is None else Guarantee(AUDIT_HOOK, f"no namespace: {why}")


# ---------------------------------------------------------------- the audit hook


def forbid_network(allow: Iterable[str] = ()) -> None:
    """Refuse network access from now on, except to the hosts in ``allow``."""
    global _allowed_names, _installed
    names = frozenset(allow)
    with _lock:
        _allowed_names = names
        _allowed_addresses.clear()
        _allowed_addresses.update(n for n in names if _is_address(n))
        _resolve_allowed(force=True)
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True


def allow_network() -> None:
    global _allowed_names
    _allowed_names = None


def network_forbidden() -> bool:
    return _allowed_names is not None


def _resolve_allowed(force: bool = False) -> None:
    """Addresses of the allowed names (a server's address may change: looked up again at
    most every :data:`RESOLVE_EVERY_S` when an unknown address is tried)."""
    global _resolved_at
    now = time.monotonic()
    if not force and now - _resolved_at < RESOLVE_EVERY_S:
        return
    _resolved_at = now
    for name in _allowed_names or ():
        try:
            _allowed_addresses.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
        except OSError:
            pass  # it may resolve later; its name stays allowed


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, (bytes, bytearray)) else str(value)


def _target(event: str, args: tuple[Any, ...]) -> tuple[str, bool] | None:
    """(what an audited operation reaches, whether that is a name) or None when it is local."""
    if event in LOOKUP_EVENTS:
        first = args[0] if args else None
        if event == "socket.getnameinfo" and isinstance(first, tuple) and first:
            return _text(first[0]), False
        return (None if first is None else (_text(first), True))
    if event == "socket.__new__":
        family = args[1] if len(args) > 1 else None
        return ("a link-level socket", False) if family in RAW_FAMILIES else None
    if event in ADDRESS_EVENTS:
        sock, address = args[0], args[1] if len(args) > 1 else None
        if getattr(sock, "family", None) not in INTERNET or not isinstance(address, tuple) or not address:
            return None
        host = _text(address[0]) or "0.0.0.0"
        if event == "socket.bind" and _is_loopback(host):
            return None
        return host, not _is_address(host)
    return None


def _allowed(host: str, is_name: bool) -> bool:
    names = _allowed_names or frozenset()
    if host in names or host in _allowed_addresses:
        return True
    if is_name or not names:
        return False
    _resolve_allowed()
    return host in _allowed_addresses


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if _allowed_names is None or not event.startswith("socket."):
        return
    target = _target(event, args)
    if target is None or _allowed(*target):
        return
    host = target[0]
    attempts.append((event, host))
    log.warning("network access refused: %s to %s", event, host)
    raise PermissionError(f"network access is off ({event} to {host} refused)")
