"""Hostile requests to ``philont-memory mcp`` over stdio: every request gets an answer or a JSON-RPC
error, and the server lives on to answer the next one.

The server runs as a client launches it (``python -m core mcp --db …`` in a child process) and is
spoken to in raw JSON-RPC lines, so that what no SDK client would send can be sent.
"""

from __future__ import annotations

import json
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from core.db import MemoryDB
from core.facts import FactStore
from tests.reliability.helpers import REPO, child_env, python

pytest.importorskip("mcp")

TIMEOUT = 60
DEEP = "[" * 200 + "]" * 200
DEEP_OBJECT = '{"a":' * 200 + "1" + "}" * 200


class _Stdio:
    """The server on stdio, one JSON-RPC line at a time."""

    def __init__(self, db: Path, log: Path, *extra: str):
        self.log = log.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [python(), "-m", "core", "--db", str(db), "mcp", *extra],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=child_env(),
        )
        self._buffer = b""

    def send(self, line: str | dict[str, Any]) -> None:
        text = line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any] | None:
        """The next line the server writes, parsed; ``None`` when none comes within TIMEOUT."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = self.proc.stdout.read1(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line.decode("utf-8"))

    def ask(self, line: str | dict[str, Any]) -> dict[str, Any] | None:
        self.send(line)
        return self.receive()

    def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()


def _request(rid: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        out["params"] = params
    return out


def _call(rid: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return _request(rid, "tools/call", {"name": name, "arguments": arguments})


@pytest.fixture
def surrogate_db(live_copy) -> Path:
    db = MemoryDB.open(live_copy, writable=True, check=False)
    try:
        FactStore(db).store_fact("user", "half", "v\ud800")  # a JSON value holding half a character
    finally:
        db.close()
    shutil.rmtree(live_copy.parent / "backups", ignore_errors=True)
    return live_copy


def test_every_request_over_stdio_is_answered_and_the_server_lives_on(surrogate_db, tmp_path):
    server = _Stdio(surrogate_db, tmp_path / "server.log")
    try:
        hello = server.ask(
            _request(
                0,
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "hostile", "version": "1"},
                },
            )
        )
        assert hello is not None and hello["result"]["serverInfo"]["name"] == "philont-memory"
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        # A stored lone surrogate: answered, the half character as U+FFFD in structured content.
        for rid, line in (
            (1, _call(1, "list_facts", {"namespace": "user"})),
            (2, _call(2, "get_fact", {"namespace": "user", "key": "half"})),
        ):
            answer = server.ask(line)
            assert answer is not None and answer["id"] == rid, (line, server.proc.poll())
            assert answer["result"]["isError"] is False
        assert answer["result"]["structuredContent"]["data"]["value"] == "v\ufffd"
        resource = server.ask(_request(3, "resources/read", {"uri": "memory://facts/user"}))
        assert resource is not None and resource["id"] == 3
        facts = json.loads(resource["result"]["contents"][0]["text"])["facts"]
        assert next(f for f in facts if f["key"] == "half")["value"] == "v\ud800"
        # Lines that cannot be read: a JSON-RPC error each, with the id where it can be read.
        unreadable = (
            ('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x\\ud800","arguments":{}}}', 4),
            ('{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}', None),
            (
                '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_facts","arguments":'
                '{"namespace":"user","deep":' + DEEP + "}}}",
                5,
            ),
            ('{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":' + DEEP_OBJECT + "}}", 6),
            ("[" * 100_000 + "]" * 100_000, None),
            ("not json", None),
        )
        for line, rid in unreadable:
            answer = server.ask(line)
            assert answer is not None, (line[:80], server.proc.poll())
            assert answer["id"] == rid and answer["error"]["code"] == -32700, answer
            assert answer["error"]["message"].startswith("Parse error: ")
            assert answer["error"]["data"]["code"] == "mcp.parse_error"
        assert "lone surrogate" in server.ask(unreadable[0][0])["error"]["message"]  # type: ignore[index]
        for line, rid in ((DEEP, None), ('{"id":7}', 7), ("[]", None)):
            answer = server.ask(line)
            assert answer is not None and answer["id"] == rid and answer["error"]["code"] == -32600, answer
            assert answer["error"]["data"]["code"] == "mcp.invalid_request"
        bad_uri = server.ask(_request(8, "resources/read", {"uri": "memory://facts/%%bad"}))
        assert bad_uri is not None and bad_uri["error"]["code"] == -32602
        assert bad_uri["error"]["data"] == {"code": "mcp.bad_uri", "params": {"uri": "memory://facts/%%bad"}}
        # And the server still answers a good request.
        tools = server.ask(_request(9, "tools/list"))
        assert tools is not None and tools["id"] == 9 and len(tools["result"]["tools"]) == 13
        assert server.proc.poll() is None
    finally:
        server.stop()
    assert server.proc.returncode == 0
