"""`site-builder serve`: watch → rebuild → reload, a live preview while writing records.

- `watcher.py`  file events sorted into change kinds, bursts settled into batches
- `affected.py` what an edit touches: the smallest rebuild for each batch
- `checked.py`  records checked one by one as they change
- `preview.py`  the last good build, rebuilt by batches
- `on_demand.py` pages asked for before the first build has written them
- `store.py`    the built site kept in memory
- `server.py`   the site over HTTP, with the reload stream
- `events.py`   the Server-Sent Events stream `reload.js` listens on
"""
