"""What the browser is told: reloads after a rebuild, and the problems keeping the preview old.

`Broadcaster` is the one place the rebuild loop and the HTTP threads meet. The loop publishes;
each open `events` stream (one thread per browser tab) waits for messages newer than the last
one it sent. It also holds the current state, which a newly connected tab receives first:
the session (a new one each time `serve` starts, so a tab reconnecting to a restarted server
knows to reload), the build number and the problems.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from typing import Any

_KEEP = 64  # messages kept for streams that fall behind; older ones are never needed


@dataclass(frozen=True, slots=True)
class Message:
    """One Server-Sent Event: its `event` name and JSON `data`."""

    number: int
    event: str
    data: dict[str, Any]

    def encode(self) -> bytes:
        """The event as it goes on the wire."""
        return f"event: {self.event}\ndata: {json.dumps(self.data)}\n\n".encode()


class Broadcaster:
    """Messages from the rebuild loop to every open event stream, and the current state."""

    def __init__(self) -> None:
        self.session = secrets.token_hex(8)
        self._ready = threading.Condition()
        self._messages: list[Message] = []
        self._number = 0
        self._build = 0
        self._problems: list[dict[str, Any]] = []
        self._closed = False

    # ---- the rebuild loop's side ------------------------------------------------------------

    def reload(self, paths: list[str] | None) -> None:
        """Tell pages to reload: those at the URL `paths`, or every page when None (an
        empty list tells nobody anything)."""
        if paths is not None and not paths:
            return
        with self._ready:
            self._build += 1
            data: dict[str, Any] = {"build": self._build}
            data.update({"all": True} if paths is None else {"paths": sorted(paths)})
            self._publish("reload", data)

    def problems(self, problems: list[dict[str, Any]]) -> None:
        """Set the problems to show (an empty list clears the overlay); tells streams only
        when they changed."""
        with self._ready:
            if problems != self._problems:
                self._problems = problems
                self._publish("problems", {"problems": problems})

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def _publish(self, event: str, data: dict[str, Any]) -> None:
        self._number += 1
        self._messages.append(Message(self._number, event, data))
        del self._messages[:-_KEEP]
        self._ready.notify_all()

    # ---- the streams' side ----------------------------------------------------------------------

    def state(self) -> tuple[int, dict[str, Any]]:
        """(number of the last message, the state a new stream starts from)."""
        with self._ready:
            return self._number, {"session": self.session, "build": self._build,
                                  "problems": self._problems}

    def wait(self, after: int, timeout: float) -> list[Message] | None:
        """Messages numbered above `after`, waiting up to `timeout` seconds for one (an
        empty list when none came). None once the broadcaster is closed."""
        with self._ready:
            self._ready.wait_for(lambda: self._closed or self._number > after, timeout)
            if self._closed:
                return None
            if self._messages and self._messages[0].number > after + 1:
                # Fell behind further than the messages kept: whatever it missed, the page
                # it feeds may be out of date, so it reloads, and the overlay is sent again.
                state = {"build": self._build, "all": True}
                return [Message(self._number, "reload", state),
                        Message(self._number, "problems", {"problems": self._problems})]
            return [m for m in self._messages if m.number > after]
