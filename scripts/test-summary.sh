#!/usr/bin/env bash
# Print one closing line over the meson test logs given: "tests: N passed, N failed".
set -euo pipefail
python3 - "$@" <<'PY'
import json, sys
passed = failed = 0
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            r = json.loads(line).get("result")
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r is not None and r != "SKIP":
                failed += 1
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
PY
