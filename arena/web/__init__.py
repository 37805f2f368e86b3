"""The browser table (``bidbluff serve``): play any game from one seat against agents, and replay records.

``views`` turns an engine position into the board one seat may see (per game, as JSON);
``tables`` holds the games in progress and the replays; ``app`` is the Starlette app that serves
them with the page under ``static/`` (no CDN: every asset is package data).
"""
