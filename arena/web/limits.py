"""Every size and time the browser table allows a request, in one place (docs/browser.md lists them).

The server answers any page the user's browser visits, so nothing a request sends may make it read a
large file, hold a large body in memory, or keep a core busy past these bounds.
"""

from __future__ import annotations

MAX_BODY = 2 * 1024 * 1024  # bytes of a request body (an uploaded record is sent as JSON, so this bounds uploads too)
MAX_DEPTH = 32  # nesting of JSON arrays and objects in a body
MAX_RECORD_FILE = 4 * 1024 * 1024  # bytes of a record file opened from a folder
MAX_CHECKPOINT_FILE = 64 * 1024 * 1024  # bytes of a checkpoint (a zip, its sidecar, a tabular policy) seated by name
MAX_SPEC = 400  # characters of an agent spec
MAX_SEED = 2**31 - 1

# A search seated from the page may cost at most what the "expert" opponent costs (about one second a decision).
MAX_SIMULATIONS = 2000
MAX_SEARCH_MS = 2000
MAX_ROLLOUT_STEPS = 200

MOVE_TIME_S = 2.0  # default per-move time limit of an agent; searches answer their best move so far at the limit
IDLE_MINUTES = 24 * 60  # default: a table nobody has looked at for a day is closed and its file removed
MAX_TABLES = 500  # games in progress at once (in memory or on disk); past it a new table is refused, none is dropped
FINISHED_MINUTES = 60  # a finished game's table (its seats may look at the end) closes after this long unused
HOT_TABLES = 64  # tables kept in memory; the least recently used idle one is unloaded (it stays on disk)
FINISHED_HOT = 16  # of them, finished games (their seats may still look at the end; it is rebuilt when asked)
THINKERS = 2  # agents thinking at once, over every table (the rest wait their turn)
FRAMES = 80  # the most moves one answer replays for the page to animate
