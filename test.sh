#!/usr/bin/env bash
# test.sh — set up, build with coverage, run every test suite (Criterion,
# command runs, proofs), the valgrind setup, and the coverage floor.
set -euo pipefail
cd "$(dirname "$0")"
. ./setup.sh
fl_install_packages
if command -v why3 >/dev/null 2>&1 && [ ! -f "$HOME/.why3.conf" ]; then
    why3 config detect >/dev/null 2>&1 || true
fi
fl_configure build true
find build -name '*.gcda' -delete
ninja -C build

status=0
meson test -C build --num-processes 2 --print-errorlogs || status=1

echo "== valgrind setup (plain programs and command runs)"
meson test -C build --setup valgrind --num-processes 2 --print-errorlogs || status=1

echo "== install: staged meson install, pkg-config consumer, installed command from /"
tests/install_check.sh . build || status=1

echo "== coverage (gcovr, floor in gcovr.cfg)"
gcovr --config gcovr.cfg build || status=1

echo "== Criterion synthesis, per test program"
grep -h "Synthesis:" build/meson-logs/testlog.txt || true
awk '/Synthesis: Tested:/ {
        for (i = 1; i <= NF; i++) {
            if ($i == "Tested:") t += $(i + 1)
            if ($i == "Passing:") p += $(i + 1)
            if ($i == "Failing:") f += $(i + 1)
            if ($i == "Crashing:") c += $(i + 1)
        }
     }
     END { printf "[====] Synthesis: Tested: %d | Passing: %d | Failing: %d | Crashing: %d\n", t, p, f, c }' \
    build/meson-logs/testlog.txt

exit $status
