"""Writes the benchmarks' payload: a 320-byte JSON alert. usage: payload.py FILE"""
import json
import sys

body = {"aps": {"alert": {"title": "Benchmark", "body": ""}, "badge": 1}}
base = len(json.dumps(body, separators=(",", ":")))
body["aps"]["alert"]["body"] = "x" * (320 - base)
text = json.dumps(body, separators=(",", ":"))
assert len(text) == 320, len(text)
with open(sys.argv[1], "w") as f:
    f.write(text)
