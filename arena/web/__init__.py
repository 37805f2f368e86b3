"""The browser table (``bidbluff serve``): play any game at seats of humans and agents, and replay records.

``views`` turns an engine position into the board one seat may see (per game, as JSON); ``tables`` holds
the games in progress and the replays; ``store`` keeps the tables in memory and on disk; ``thinking`` is the
pool the agents think in; ``offered`` says which agents a page may seat; ``folders`` which files it may
open; ``guard`` which requests are answered at all; ``limits`` every bound; ``app`` is the Starlette app
that serves them with the page under ``static/`` (no CDN: every asset is package data); ``cli`` is
``serve``'s options and entry.  Importing this package or ``cli`` needs no web extra.
"""
