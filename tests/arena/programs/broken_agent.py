"""A deliberately broken bidbluff agent for the tests: ``broken_agent.py MODE [PIDFILE]``.

It plays well (the first legal move) until its third decision, then breaks as MODE says: ``hang`` (stops
answering), ``hang-child`` (starts a child that sleeps, then stops answering: the kill must reach the child),
``crash`` (exits 3 after a line on stderr), ``garbage`` (a line that is not JSON), ``illegal`` (an id that is
not legal), ``unknown-name`` (a move name that is not legal), ``no-read`` (stops reading its input: bidbluff's
write must not block), ``bad-hello`` (answers the hello with version 99), ``silent`` (never answers the hello),
``twice`` (answers twice).  ``good`` never breaks; ``slow`` takes 0.2 s a move; ``linger`` plays well but keeps
running after its input ends (its ``close`` must kill it); ``record`` plays well and appends each message it
gets to PIDFILE's ``.log``.  PIDFILE gets the pids it and its child run as (the tests check none is left)."""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
pidfile = sys.argv[2] if len(sys.argv) > 2 else None


def note_pid(pid: int) -> None:
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{pid}\n")


note_pid(os.getpid())
moves = 0
for line in sys.stdin:
    message = json.loads(line)
    if mode == "record":
        with open(pidfile + ".log", "a") as log:
            log.write(line)
    if message["type"] == "hello":
        if mode == "silent":
            time.sleep(3600)
        print(json.dumps({"type": "hello", "version": 99 if mode == "bad-hello" else 1, "name": mode}), flush=True)
    elif message["type"] == "act":
        moves += 1
        if moves >= 3 and mode != "good":
            if mode == "hang":
                time.sleep(3600)
            if mode == "hang-child":
                child = subprocess.Popen(["sleep", "3600"])
                note_pid(child.pid)
                time.sleep(3600)
            if mode == "crash":
                print("broken_agent: crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode == "garbage":
                print("this is not json", flush=True)
                continue
            if mode == "illegal":
                bad = next(i for i, legal in enumerate(message["mask"]) if not legal)
                print(json.dumps({"action": bad}), flush=True)
                continue
            if mode == "unknown-name":
                print(json.dumps({"action": "fly to the moon"}), flush=True)
                continue
            if mode == "twice":
                print(json.dumps({"action": message["legal"][0]}), flush=True)
            if mode == "no-read":
                time.sleep(3600)
        if mode == "slow":
            time.sleep(0.2)
        if mode == "record":  # answers by name, the other form
            print(json.dumps({"action": message["legal_names"][0]}), flush=True)
            continue
        print(json.dumps({"action": message["legal"][0]}), flush=True)
if mode == "linger":
    time.sleep(3600)
