#!/usr/bin/env bash
# The package as users install it: a wheel built from this checkout, installed (not editable) into a fresh
# virtual environment, then used from a folder outside the checkout.  Nothing of the checkout is on the path
# there, so every env, agent, checkpoint and web asset must come from the installed package.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 -m pip wheel "$root" --no-deps --quiet -w "$work/dist"
python3 -m venv "$work/venv"
wheel="$(ls "$work"/dist/bidbluff-*.whl)"
"$work/venv/bin/python" -m pip install --quiet -c "$root/constraints.txt" "$wheel[train,web,openspiel]"
bin="$work/venv/bin"

echo "the sdist carries the shipped checkpoints, the CFR table and the web assets too"
"$bin/python" -m pip install --quiet build
"$bin/python" -m build --sdist --outdir "$work/sdist" "$root" > /dev/null
"$bin/python" - "$work"/sdist/bidbluff-*.tar.gz <<'PY'
import sys, tarfile
names = tarfile.open(sys.argv[1]).getnames()
for needed in ("checkpoints/liars_dice/selfplay.zip", "checkpoints/liars_dice/cfr_2p1d.json",
               "checkpoints/spytails/selfplay.json", "arena/web/static/app.js", "bidbluff/py.typed", "CHANGELOG.md"):
    assert any(n.endswith(needed) for n in names), f"the sdist lacks {needed}"
PY
cd "$work"

echo "installed: only bidbluff at the top, every env passes PettingZoo's api_test"
"$bin/python" - <<'PY'
import importlib.util, sys
from pettingzoo.test import api_test
import bidbluff
from bidbluff import envs
from bidbluff.envs import liars_dice_v0, libertalia_v0, lying_pirates_v0, spytails_v0
for generic in ("envs", "agents", "training", "arena"):
    assert importlib.util.find_spec(generic) is None, f"a top-level {generic!r} was installed"
assert "site-packages" in bidbluff.__file__, bidbluff.__file__
for module in (liars_dice_v0, libertalia_v0, lying_pirates_v0, spytails_v0):
    api_test(module.env(), num_cycles=200)
print("version", bidbluff.__version__, "from", bidbluff.__file__)
PY

echo "installed: a tournament of the shipped agents"
"$bin/bidbluff" tournament liars_dice_v0 --agents shipped,heuristic,cfr,random --players 2 --option dice=1 --games 24 --quiet \
    --json tournament.json
"$bin/python" -c "import json; r = json.load(open('tournament.json')); assert r['games'] >= 24, r"
for env in libertalia_v0 lying_pirates_v0 spytails_v0; do
    "$bin/bidbluff" tournament "$env" --agents shipped,heuristic --players 2 --games 2 --quiet
done

echo "installed: a game in the terminal against the shipped network, played to the end by scripted input"
printf '#1\n%.0s' $(seq 1 60) | "$bin/bidbluff" play liars_dice_v0 --seed 3 --save game.json > play.log
"$bin/bidbluff" replay game.json --all > /dev/null

echo "installed: exact exploitability (the openspiel extra)"
"$bin/bidbluff" exploitability liars_dice_v0 --agent cfr --json exploit.json > /dev/null
"$bin/python" -c "import json; assert json.load(open('exploit.json'))['exploitability'] < 0.01"

echo "installed: the browser table answers on loopback"
port="$("$bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin/bidbluff" serve --port "$port" --records records > serve.log 2>&1 &
server=$!
for _ in $(seq 1 60); do
    if "$bin/python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=2)" 2>/dev/null; then
        echo "the installed server answered"
        exit 0
    fi
    sleep 1
done
cat serve.log
echo "the installed server did not answer" >&2
exit 1
