"""`site-builder serve`: watch → rebuild → reload, a live preview while writing records.

watcher.py sorts file events into change kinds and settles bursts into batches; preview.py
keeps the last good build in memory (store.py) and picks the smallest rebuild for each batch
(affected.py says what an edit touches); server.py serves it over HTTP, with the Server-Sent
Events stream (events.py) that reload.js listens on; command.py is the command-line front end.
"""
