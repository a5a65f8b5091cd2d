"""The connection guard: uvicorn's h11 protocol with deadlines and a cap on connections.

uvicorn times out only the idle wait between two requests, so a client that sends its
headers or body a byte a second, or opens sockets and sends nothing, holds them as long as
it likes, and enough such sockets exhaust the process's file descriptors. Here, on each
connection:

- the request line must arrive within `line` seconds of the connection opening (or of the
  previous answer), the headers within `headers` seconds after it, and the body within
  `body` seconds after them; a connection that misses one is closed (with 408 when
  nothing of an answer was sent yet);
- at most `connections` are open, below the file-descriptor limit: one over the cap makes
  room by closing the connection that has waited longest for a request to arrive whole
  (an idle or trickling one), and is itself refused with 503 only when every other
  connection is busy with a request;
- each kind of refusal is logged at most once a minute (refusals.py), never a traceback;
  running out of file descriptors anyway is logged the same way (`quiet_accept_errors`).

h11 is uvicorn's implementation that parses in Python and refuses malformed framing itself;
httptools is not a dependency. Deadlines and the cap can be set for tests and tuning with
SITE_BUILDER_MCP_DEADLINE (seconds, each phase) and SITE_BUILDER_MCP_MAX_CONNECTIONS;
`uvicorn --http site_builder.mcp.guard:GuardedH11` puts the guard under the ASGI factory.
"""

from __future__ import annotations

import asyncio
import errno
import os
import resource
from dataclasses import dataclass
from typing import Any, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from site_builder.mcp.refusals import REFUSALS

DEADLINE_VARIABLE = "SITE_BUILDER_MCP_DEADLINE"
CONNECTIONS_VARIABLE = "SITE_BUILDER_MCP_MAX_CONNECTIONS"
DEFAULT_SECONDS = 10.0
DEFAULT_CONNECTIONS = 1000
# File descriptors kept for the server's own use (archive files, the remote site's
# connections, logs) besides one per connection and the listen backlog.
RESERVED_FDS = 64
_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_FULL = b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_WAITING = ("line", "headers")  # phases in which a connection waits for its client


@dataclass(frozen=True)
class Limits:
    """Seconds for each phase of a request, and the most connections open at once."""

    line: float
    headers: float
    body: float
    connections: int

    @classmethod
    def from_environment(cls, backlog: int) -> Limits:
        """The limits from the environment (defaults otherwise), the cap kept below the
        file-descriptor limit less `backlog` (sockets accepted before the guard sees
        them) and RESERVED_FDS. Raises ValueError for a variable that is not a number."""
        seconds = float(os.environ.get(DEADLINE_VARIABLE) or DEFAULT_SECONDS)
        wanted = int(os.environ.get(CONNECTIONS_VARIABLE) or DEFAULT_CONNECTIONS)
        if seconds <= 0 or wanted < 1:
            raise ValueError(f"{DEADLINE_VARIABLE} and {CONNECTIONS_VARIABLE} must be above 0")
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        room = wanted if soft == resource.RLIM_INFINITY else soft - backlog - RESERVED_FDS
        return cls(seconds, seconds, seconds, max(1, min(wanted, room)))


class GuardedH11(H11Protocol):
    """uvicorn's H11Protocol, with a deadline on each phase of a request's arrival and a
    cap on the connections open at once."""

    limits: Limits | None = None  # computed once, by the first connection

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if GuardedH11.limits is None:
            GuardedH11.limits = Limits.from_environment(self.config.backlog)
        self._limits = GuardedH11.limits
        self._phase = "line"
        self._since = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream server hands every protocol a full Transport; uvicorn's parent says so.
        super().connection_made(cast(asyncio.Transport, transport))
        self._enter("line")
        if len(self.connections) > self._limits.connections and not self._make_room():
            REFUSALS.note(f"connections past the cap of {self._limits.connections} "
                          "while every other one was busy")
            self.transport.write(_FULL)
            self.transport.close()

    def _make_room(self) -> bool:
        """Close the connection waiting longest for a request; False when none waits."""
        oldest: GuardedH11 | None = None
        for other in self.connections:
            if other is not self and isinstance(other, GuardedH11) \
                    and other._phase in _WAITING and not other.transport.is_closing() \
                    and (oldest is None or other._since < oldest._since):
                oldest = other
        if oldest is None:
            return False
        REFUSALS.note(f"waiting connections, closed to make room past the cap of "
                      f"{self._limits.connections}")
        oldest._close(_TIMEOUT if oldest.conn.our_state is h11.IDLE else b"")
        return True

    def data_received(self, data: bytes) -> None:
        if self._phase == "line" and b"\n" in data:
            self._enter("headers")
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if state is h11.SEND_BODY and self._phase in _WAITING:
            self._enter("body")
        elif state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED) and self._phase != "answer":
            self._enter("answer")  # the request is whole: the rest is the server's time

    def on_response_complete(self) -> None:
        if self.conn.their_state is h11.DONE:
            self._enter("line")  # the next request on this connection starts its clock
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._enter("closed")
        super().connection_lost(exc)

    def _enter(self, phase: str) -> None:
        """Start `phase`, cancelling the previous phase's deadline and setting its own."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._phase = phase
        self._since = self.loop.time()
        seconds = getattr(self._limits, phase, None)
        if seconds is not None:
            self._timer = self.loop.call_later(seconds, self._expire, phase)

    def _expire(self, phase: str) -> None:
        self._timer = None
        if self._phase != phase or self.transport.is_closing():
            return
        what = {"line": "request line", "headers": "headers", "body": "body"}[phase]
        REFUSALS.note(f"requests whose {what} did not arrive within "
                      f"{getattr(self._limits, phase):g}s")
        self._close(_TIMEOUT if self.conn.our_state is h11.IDLE else b"")

    def _close(self, answer: bytes) -> None:
        if answer:
            self.transport.write(answer)
        self.transport.close()


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Make `loop` count running out of file descriptors as a refusal instead of logging
    a traceback for every failed accept."""
    default = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE,
                                                      errno.ENOBUFS, errno.ENOMEM):
            REFUSALS.note(f"connections: out of file descriptors ({exc.strerror})")
        elif default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)
    loop.set_exception_handler(handler)
