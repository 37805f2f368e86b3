#!/usr/bin/env bash
# A bidbluff agent in bash: the bidbluff-agent protocol, version 1 (docs/program-agents.md).
# It answers every decision with the first legal move's id.  bidbluff writes compact JSON (no spaces), which
# lets a regular expression stand in for a JSON parser here; a real agent should parse its input as JSON.
# Run it:  bidbluff tournament liars_dice_v0 --agents 'cmd:"bash examples/agents/first_legal.sh"',random
set -u
while IFS= read -r line; do
    if [[ $line == '{"type":"hello"'* ]]; then
        echo '{"type":"hello","version":1,"name":"first_legal.sh"}'
    elif [[ $line == '{"type":"act"'* ]]; then
        if [[ $line =~ \"legal\":\[([0-9]+) ]]; then
            echo "{\"action\":${BASH_REMATCH[1]}}"
        else
            echo "first_legal.sh: no legal move in the message" >&2
            exit 1
        fi
    fi
done
# end of input: bidbluff is done with us
