#!/usr/bin/env python3
"""Hammer a DPDK telemetry socket with commands until it goes away.

usage: tel_hammer.py [--ready FILE] SOCKET_PATH SECONDS COMMAND...

Connects (retrying for 5 s), creates FILE once the first reply came, then sends the commands round-robin, each reply
read whole, until the socket closes (the process stopped) or SECONDS pass.
Every reply must be valid JSON: a reply that is not, or one that is an
unexpected error, fails (exit 1). Prints how many replies came and how many of
them were lull's "lull is stopping" answer.
"""
import json
import socket
import sys
import time

ready = None
if sys.argv[1] == "--ready":
    ready = sys.argv[2]
    del sys.argv[1:3]
path, secs, cmds = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
t_end = time.monotonic() + 5
while True:
    try:
        s.connect(path)
        break
    except OSError:
        if time.monotonic() > t_end:
            sys.exit(f"tel_hammer: cannot connect to {path}")
        time.sleep(0.05)
try:
    json.loads(s.recv(1 << 16).decode())  # the greeting: version, pid, max_output_len
except (OSError, ValueError) as e:
    sys.exit(f"tel_hammer: no greeting: {e}")
replies = stopping = 0
t_end = time.monotonic() + secs
i = 0
while time.monotonic() < t_end:
    cmd = cmds[i % len(cmds)]
    i += 1
    try:
        s.send(cmd.encode())
        raw = s.recv(1 << 20)
    except OSError:
        break  # the process went away
    if not raw:
        break
    try:
        reply = json.loads(raw.decode())
    except ValueError:
        sys.exit(f"tel_hammer: {cmd}: not JSON: {raw[:200]!r}")
    val = reply.get(cmd.split(",")[0]) if isinstance(reply, dict) else None
    if isinstance(val, str):
        if val != "lull is stopping":
            sys.exit(f"tel_hammer: {cmd}: unexpected error reply: {val}")
        stopping += 1
    replies += 1
    if ready is not None and replies == 1:
        open(ready, "w").close()
print(f"{replies} replies, {stopping} 'lull is stopping'")
