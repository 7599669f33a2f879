#!/usr/bin/env bash
# Print one closing line over the meson test logs given: "tests: N passed, N failed",
# after the last lines of each failed test's output (the cause, at the end of CI's log:
# a test's own lines, with its FAIL line, after the tails of the logs it dumped).
# A log that is missing (its build or run never started) counts as a failure.
set -euo pipefail
python3 - "$@" <<'PY'
import json, sys
passed = failed = 0
for path in sys.argv[1:]:
    try:
        f = open(path)
    except OSError as e:
        print(f"{path}: {e.strerror}")
        failed += 1
        continue
    with f:
        for line in f:
            t = json.loads(line)
            r = t.get("result")
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r is not None and r != "SKIP":
                failed += 1
                out = (t.get("stdout") or "").rstrip().splitlines()
                # an integration test's own lines come before the logs it dumps
                # ("---- FILE" and their tails): show both, its own last, so that
                # its FAIL line (the cause) is never cut off by the logs' tails
                dump = next((i for i, l in enumerate(out) if l.startswith("---- ")), len(out))
                own, logs = out[:dump], out[dump:]
                print(f"==== {r}: {t.get('name')} ({path.split('/')[0]}), last lines:")
                if logs:
                    print("\n".join("    " + l for l in logs[-15:]))
                    print("    ==== its own last lines:")
                print("\n".join("    " + l for l in own[-(12 if logs else 25):]))
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
PY
