"""Streamable HTTP: the address given on the command line, which requests are answered
(:class:`HostCheck`, on every address) and the warning for a server other computers can reach."""

from __future__ import annotations

import socket
from typing import Any

from core.errors import ValidationError_
from core.mcp_server.service import DEFAULT_HTTP_HOST, HTTP_PATH, say


def parse_http_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT`` or ``PORT`` (host 127.0.0.1); port 0 picks a free one."""
    t = text.strip()
    host, port_text = DEFAULT_HTTP_HOST, t
    if t.startswith("["):
        close = t.find("]")
        if close < 0 or not t[close + 1 :].startswith(":"):
            raise ValidationError_(
                f"Not an address: {text!r} (expected HOST:PORT).",
                code="mcp.bad_address",
                params={"address": text},
            )
        host, port_text = t[1:close], t[close + 2 :]
    elif ":" in t:
        host, _, port_text = t.rpartition(":")
    if not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValidationError_(
            f"Not an address: {text!r} (expected HOST:PORT, a port from 0 to 65535).",
            code="mcp.bad_address",
            params={"address": text},
        )
    return host, int(port_text)


def _numeric_ip(name: str) -> Any:
    """The IP address a literal spells (``127.1`` is 127.0.0.1; never a name looked up), else ``None``."""
    import ipaddress

    try:
        found = socket.getaddrinfo(name, None, flags=socket.AI_NUMERICHOST)
        return ipaddress.ip_address(str(found[0][4][0]).partition("%")[0])
    except (OSError, ValueError, UnicodeError, IndexError):
        return None


def _split_host(text: str) -> tuple[str, int] | None:
    """``(name, port)`` of a Host header (``name``, ``name:port``, ``[v6]:port``; port 80 when absent)."""
    t = text.strip()
    if t.startswith("["):
        name, close, rest = t[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else "80"
    elif t.count(":") > 1:
        return None
    else:
        name, colon, port = t.partition(":")
        port = port if colon else "80"
    if not name or not port.isdigit() or len(port) > 5:
        return None
    return name.lower(), int(port)


class HostCheck:
    """Which HTTP requests the server answers: the Host header names this server with its port (the
    address it is bound to, ``localhost`` or the host name it was started with; bound to every address,
    any address of this computer or ``localhost``), and an ``Origin``, when a browser sends one, is
    ``http://`` such a host. A web page that reaches the server through DNS rebinding sends its own name
    in both, so it is refused on every address."""

    def __init__(self, address: str, port: int, given: str = ""):
        bound = _numeric_ip(address)
        if bound is None:
            raise ValueError(f"not an IP address: {address!r}")
        self.address = bound
        self.port = port
        self.every = bool(bound.is_unspecified)
        self.names = {"localhost"} | ({given.lower()} if given and _numeric_ip(given) is None else set())
        self._own: dict[Any, bool] = {}

    def described(self) -> str:
        if self.every:
            return f"an address of this computer or localhost, port {self.port}"
        shown = f"[{self.address}]" if self.address.version == 6 else str(self.address)
        names = [f"{n}:{self.port}" for n in sorted(self.names)]
        return " or ".join([f"{shown}:{self.port}", *names])

    def host_ok(self, header: str) -> bool:
        split = _split_host(header)
        if split is None or split[1] != self.port:
            return False
        if split[0] in self.names:
            return True
        ip = _numeric_ip(split[0])
        if ip is None:
            return False
        if self.every:
            return not ip.is_unspecified and self._is_own(ip)
        return bool(ip == self.address)

    def origin_ok(self, header: str) -> bool:
        scheme, sep, rest = header.strip().partition("://")
        return bool(sep) and scheme.lower() == "http" and "/" not in rest and self.host_ok(rest)

    def refusal(self, hosts: list[str], origins: list[str]) -> tuple[int, str] | None:
        """``(status, text)`` refusing a request with these Host and Origin headers, else ``None``."""
        if len(hosts) != 1 or not self.host_ok(hosts[0]):
            shown = hosts[0][:100] if len(hosts) == 1 else f"{len(hosts)} Host headers"
            return 421, (
                f"Refused: the Host header ({shown!r}) does not name this server ({self.described()}). A web "
                "page reaching a server on this computer through DNS rebinding sends its own name there."
            )
        if len(origins) > 1 or (origins and not self.origin_ok(origins[0])):
            shown = origins[0][:100] if len(origins) == 1 else f"{len(origins)} Origin headers"
            return 403, f"Refused: the request comes from a web page ({shown!r}), not from this server."
        return None

    def _is_own(self, ip: Any) -> bool:
        """Whether ``ip`` is an address of this computer: one a socket can be bound to."""
        if ip.is_loopback:
            return True
        if ip not in self._own:
            family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
            try:
                with socket.socket(family, socket.SOCK_STREAM) as probe:
                    probe.bind((str(ip), 0))
                self._own[ip] = True
            except OSError:
                self._own[ip] = False
        return self._own[ip]


class _HostGuard:
    """ASGI middleware answering only the requests :class:`HostCheck` accepts."""

    def __init__(self, app: Any, check: HostCheck):
        self.app = app
        self.check = check

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            headers = [(k.lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
            refusal = self.check.refusal(
                [v for k, v in headers if k == b"host"], [v for k, v in headers if k == b"origin"]
            )
            if refusal is not None:
                from starlette.responses import PlainTextResponse

                await PlainTextResponse(refusal[1], status_code=refusal[0])(scope, receive, send)
                return
        await self.app(scope, receive, send)


def run_http(server: Any, host: str, port: int, what: str, write: bool) -> int:
    import asyncio

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(socket.SOMAXCONN)  # a client may connect as soon as the address is printed
    except OSError:
        sock.close()
        raise
    address, bound = sock.getsockname()[:2]
    check = HostCheck(address, bound, host)
    # Host and Origin are checked in front of the app on every address (the SDK checks them only for
    # 127.0.0.1, localhost and ::1, with any port).
    from mcp.server.transport_security import TransportSecuritySettings

    app = server.streamable_http_app(
        host=host,
        streamable_http_path=HTTP_PATH,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    config = uvicorn.Config(_HostGuard(app, check), log_level="warning", lifespan="on")
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    warning = exposure_warning(check, host, write)
    if warning is not None:
        say(warning)
    say(f"MCP server on http://{shown}:{bound}{HTTP_PATH}, {what}")
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))
    return 0


def exposure_warning(check: HostCheck, host: str, write: bool) -> str | None:
    """The warning for a server that is not on a loopback address: who can reach it, what is refused
    and what that does not stop (``None`` on a loopback address)."""
    if check.address.is_loopback:
        return None
    what = "read the memory" + (" and change it" if write else "")
    where = "on every address of this computer" if check.every else f"on {host}, not only this computer"
    return (
        f"warning: listening {where}: any computer that can reach it can {what}, with no password. Only "
        f"requests naming {check.described()} in Host (and Origin) are answered: that keeps web pages "
        "from reaching it through DNS rebinding, not other computers or programs."
    )
