"""`site-builder serve`: the command-line front end of the live preview.

The main thread is the rebuild loop, the only writer: it takes settled batches of changes
from the watcher, updates the preview, and writes stale files while nothing else happens.
HTTP requests are answered from other threads. The site lives in memory only, so Ctrl-C (or
SIGTERM) has nothing to clean up but the watcher and the server; the exit code is then 0.
"""

from __future__ import annotations

import argparse
import errno
import signal
import sys
import threading
import time
from types import FrameType
from typing import TYPE_CHECKING

from site_builder.cli.progress import ProgressLine

if TYPE_CHECKING:  # imported when `serve` runs: the CLI's other commands never load them
    from site_builder.serve.events import Broadcaster
    from site_builder.serve.on_demand import FirstBuild
    from site_builder.serve.preview import Preview
    from site_builder.serve.server import PreviewServer
    from site_builder.serve.store import SiteStore
    from site_builder.serve.watcher import Watcher

from site_builder.base.words import plural
from site_builder.cli.common import Subcommands, fail, find_root, load_config_or_fail
from site_builder.errors import OK, USAGE

# Listings and agent files are written again once no change came for this long: an author
# saving again and again sees each save on its page first, and the rest when they pause.
QUIET = 1.0
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("must be from 0 to 65535 (0: any free port)")
    return value


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Add `serve` to the command-line parser."""
    p = sub.add_parser("serve", parents=[common],
                       help="live preview: build, serve, rebuild on change, reload the browser")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_port, default=8000,
                   help="port to listen on (default: 8000; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the site in a web browser")
    p.set_defaults(func=cmd_serve)


def address(host: str, port: int, base: str) -> str:
    """The URL to browse to for a server bound to `host`:`port`."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}{base}"


def bind(host: str, port: int, base: str, events: Broadcaster,
         store: SiteStore, first: FirstBuild | None = None) -> PreviewServer:
    """The server, listening. Raises SystemExit(2) with one clear line when it cannot."""
    from site_builder.serve.server import PreviewServer

    try:
        return PreviewServer(host, port, store, base, events, first=first)
    except OSError as exc:
        where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
        if exc.errno == errno.EADDRINUSE:
            why = (f"port {port} is in use; choose another with --port "
                   "(--port 0 picks a free one)")
        else:
            why = exc.strerror or str(exc)
        fail(f"cannot serve on {where}: {why}")
        raise SystemExit(USAGE) from None


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def cmd_serve(args: argparse.Namespace) -> int:
    from site_builder.serve.events import Broadcaster
    from site_builder.serve.on_demand import FirstBuild
    from site_builder.serve.preview import Preview, say
    from site_builder.serve.store import SiteStore
    from site_builder.serve.watcher import Layout, Watcher

    root = find_root(args.root)
    config = load_config_or_fail(root)
    events = Broadcaster()
    store = SiteStore()
    first = FirstBuild()
    server = bind(args.host, args.port, config.base, events, store, first)
    signal.signal(signal.SIGTERM, _stop)
    preview = Preview(root, store, events)
    # Watching starts before the first build, so that a save made while it runs is seen.
    watcher = Watcher(Layout.of(config, preview.cache.failed_sources))
    watcher.start()
    try:
        # The server answers at once: pages the first build has not written yet are made
        # on demand meanwhile (serve.on_demand).
        threading.Thread(target=server.serve_forever, name="serve-http", daemon=True).start()
        _announce(args, config.title, address(args.host, server.port, config.base))
        started = time.perf_counter()
        progress = ProgressLine(sys.stderr, delay=0.0)
        built = preview.start(progress, first)
        progress.clear()
        if built:
            say(f"site-builder serve: built {plural(len(store), 'file')} in "
                f"{time.perf_counter() - started:.1f} s", sys.stderr)
        else:
            say("site-builder serve: nothing to show until the errors above are fixed",
                sys.stderr)
        _loop(preview, watcher, server)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut cleanup
        watcher.stop()
        events.close()
        server.shutdown()
        server.server_close()
        signal.signal(signal.SIGINT, signal.default_int_handler)
    say("site-builder serve: stopped", sys.stderr)
    return OK


def _announce(args: argparse.Namespace, title: str, url: str) -> None:
    """Say where the preview is (and open it with --open), before the first build."""
    from site_builder.serve.preview import say

    if args.host not in LOOPBACK:
        say(f"site-builder serve: listening on {args.host}: anyone who can reach this "
            "machine can read the preview", sys.stderr)
    say(f"Serving {title} at {url} (Ctrl-C to stop)", sys.stdout)
    if args.open:
        import webbrowser  # only with --open: 8 ms of loading otherwise

        webbrowser.open(url)


def _loop(preview: Preview, watcher: Watcher, server: PreviewServer) -> None:
    """Rebuild on every settled batch of changes; once none came for QUIET seconds, write
    the stale files (listings and agent files), stopping as soon as a change comes."""
    from site_builder.serve.watcher import ChangeKind

    last_change = time.monotonic()
    while True:
        wait = max(0.0, last_change + QUIET - time.monotonic()) if preview.stale else None
        changes = watcher.next_batch(wait)
        if changes:
            structural = max(changes.values()) > ChangeKind.RECORD
            if structural:  # watch folders made (or site.yml's new ones) before reading them
                layout = preview.layout()
                if layout is not None:
                    watcher.watch(layout)
            preview.update(changes)
            if structural:
                server.base = preview.base
            last_change = time.monotonic()
        elif preview.stale and time.monotonic() >= last_change + QUIET:
            preview.catch_up(watcher.pending)
