"""A network namespace of the process's own, with no interface but loopback (Linux).

Inside it nothing the process runs can reach a network: not Python, not the native
engines (llama.cpp, onnxruntime, CTranslate2, Qt), not a child process. It is made as
``unshare -rn`` does, without privileges: a new user namespace (the same user id mapped
inside) owning a new network namespace, whose loopback is then brought up.

Linux refuses a new user namespace to a process that already runs more than one thread,
and the numerical libraries start threads as soon as they are imported. So the process
is asked to isolate itself through its environment (:data:`ENV` = ``enter``) and does it
first thing in ``assistant/__main__.py``, before anything else is imported
(:func:`enter_if_asked`); :func:`relaunch_isolated` starts this program again that way.
The result is left in the same variable for the rest of the process (and its children):
the namespace's id when it worked, ``failed: why`` when it did not. ``off`` set by an
administrator turns the namespace off (the audit hook alone guards then).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import socket
import struct
import sys

from assistant import resources
from assistant.resources import own_command

ENV = "ASSISTANT_NETNS"
ASK = "enter"
PROBE = "probe"
"""Enter, report on stdout and exit (used to learn whether this machine allows it)."""
FAILED = "failed: "
OFF = "off"
"""Set by an administrator: never use a namespace (the audit hook alone guards)."""

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
_IFREQ = struct.Struct("16sh22x")


class NetnsError(OSError):
    """The namespace cannot be made here (the OS, a container or a policy forbids it)."""


def supported() -> bool:
    return sys.platform.startswith("linux")


def enter() -> None:
    """Move this (single-threaded) process into a new network namespace with only loopback."""
    if not supported():
        raise NetnsError(f"network namespaces are a Linux feature ({sys.platform} has none)")
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        code = ctypes.get_errno()
        hint = " (the process already runs threads)" if code == errno.EINVAL else (
            " (unprivileged user namespaces are off: sysctl kernel.unprivileged_userns_clone, "
            "user.max_user_namespaces, or an AppArmor/SELinux/seccomp policy)" if code in (errno.EPERM, errno.ENOSPC)
            else "")
        raise NetnsError(f"unshare(CLONE_NEWUSER | CLONE_NEWNET) failed: {os.strerror(code)}{hint}")
    try:
        _write("/proc/self/setgroups", "deny", missing_ok=True)
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        _loopback_up()
    except OSError as exc:
        raise NetnsError(f"the new network namespace could not be set up: {exc}") from exc
    if not only_loopback():
        raise NetnsError("the new network namespace has interfaces besides loopback")


def _write(path: str, text: str, missing_ok: bool = False) -> None:
    try:
        with open(path, "w") as f:
            f.write(text)
    except FileNotFoundError:
        if not missing_ok:
            raise


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        _, flags = _IFREQ.unpack(fcntl.ioctl(sock, SIOCGIFFLAGS, _IFREQ.pack(b"lo", 0)))
        fcntl.ioctl(sock, SIOCSIFFLAGS, _IFREQ.pack(b"lo", flags | IFF_UP))


def only_loopback() -> bool:
    """No network interface but loopback is visible to this process."""
    try:
        return all(name == "lo" for _, name in socket.if_nameindex())
    except OSError:
        return False


def namespace_id() -> str:
    try:
        return os.readlink("/proc/self/ns/net")
    except OSError:
        return ""


def inside() -> bool:
    """This process runs in the namespace made for it (or inherited from the process that made it)."""
    value = os.environ.get(ENV, "")
    return value.startswith("net:") and value == namespace_id() and only_loopback()


def failure() -> str | None:
    """Why entering the namespace failed in this process (None if it was not tried or worked)."""
    value = os.environ.get(ENV, "")
    if value == OFF:
        return f"turned off ({ENV}={OFF})"
    return value[len(FAILED):] if value.startswith(FAILED) else None


def enter_if_asked() -> None:
    """First thing at start-up: enter the namespace if the environment asks for it."""
    asked = os.environ.get(ENV)
    if asked not in (ASK, PROBE):
        return
    try:
        enter()
        os.environ[ENV] = namespace_id()
    except NetnsError as exc:
        os.environ[ENV] = FAILED + str(exc)
    if asked == PROBE:
        print(os.environ[ENV], flush=True)
        raise SystemExit(0 if inside() else 1)


def child_env(env: dict[str, str] | None = None, ask: str = ASK) -> dict[str, str]:
    """An environment for this program started again, asking it to isolate itself (and
    able to import this package from any working folder)."""
    return resources.child_env({ENV: ask}, env)


def relaunch_isolated(argv: list[str]) -> None:
    """Replace this process by the same program in its own network namespace (never returns)."""
    sys.stdout.flush()
    sys.stderr.flush()
    command = own_command() + argv
    os.execve(command[0], command, child_env())


def probe(timeout_s: float = 30.0) -> str | None:
    """Whether a process of this program can isolate itself here: None if it can, else why not."""
    import subprocess

    if not supported():
        return f"network namespaces are a Linux feature ({sys.platform} has none)"
    if (why := failure()) is not None:
        return why
    try:
        run = subprocess.run(own_command(), env=child_env(ask=PROBE), capture_output=True, text=True,
                             timeout=timeout_s, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the check could not run: {exc}"
    answer = run.stdout.strip().splitlines()[-1:] or [run.stderr.strip()[-200:]]
    if run.returncode == 0:
        return None
    return answer[0][len(FAILED):] if answer[0].startswith(FAILED) else answer[0] or f"exit code {run.returncode}"
