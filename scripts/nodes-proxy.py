#!/usr/bin/env python3
"""UCI proxy: every `go ...` with clock fields becomes `go nodes N` (load-independent A/B tests)."""
import subprocess, sys, threading
engine, nodes = sys.argv[1], sys.argv[2]
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def pump():
    for line in p.stdout:
        sys.stdout.write(line); sys.stdout.flush()
threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go") and "infinite" not in line and "ponder" not in line:
        line = f"go nodes {nodes}\n"
    p.stdin.write(line); p.stdin.flush()
    if line.strip() == "quit":
        break
p.wait()
