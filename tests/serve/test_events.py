"""The messages that tell open pages to reload, and what a page connecting late is told."""

from __future__ import annotations

from site_builder.serve.events import Broadcaster


def test_pages_are_told_which_pages_changed_and_what_is_wrong() -> None:
    events = Broadcaster()
    start, _ = events.state()
    events.reload(["/a/"])
    events.reload([])  # nothing changed: nobody is told anything
    events.problems([{"path": "x.md", "line": 4, "level": "error", "message": "bad"}])
    events.problems([{"path": "x.md", "line": 4, "level": "error", "message": "bad"}])
    events.reload(None)
    told = events.wait(start, timeout=1)
    assert told is not None
    assert [(m.event, m.data) for m in told] == [
        ("reload", {"build": 1, "paths": ["/a/"]}),
        ("problems", {"problems": [{"path": "x.md", "line": 4, "level": "error",
                                    "message": "bad"}]}),
        ("reload", {"build": 2, "all": True}),
    ]
    assert told[0].encode() == b'event: reload\ndata: {"build": 1, "paths": ["/a/"]}\n\n'
    _, state = events.state()
    assert state["build"] == 2 and state["problems"][0]["line"] == 4


def test_a_stream_that_fell_far_behind_is_told_to_reload_everything() -> None:
    events = Broadcaster()
    start, state = events.state()
    assert state["build"] == 0 and state["problems"] == []
    for number in range(100):
        events.reload([f"/page-{number}/"])
    missed = events.wait(start, timeout=1)
    assert missed is not None
    assert [(m.event, m.data) for m in missed] == [
        ("reload", {"build": 100, "all": True}), ("problems", {"problems": []})]
    latest, _ = events.state()
    assert events.wait(latest - 1, timeout=1)[0].data == {"build": 100, "paths": ["/page-99/"]}
    events.close()
    assert events.wait(latest, timeout=1) is None
