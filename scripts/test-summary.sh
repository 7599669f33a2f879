#!/usr/bin/env bash
# Print one closing line over the meson test logs given: "tests: N passed, N failed",
# after the last lines of each failed test's output (the cause, at the end of CI's log).
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
                print(f"==== {r}: {t.get('name')} ({path.split('/')[0]}), last lines:")
                print("\n".join("    " + l for l in out[-25:]))
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
PY
