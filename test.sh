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

# failed: the stages that failed, named again at the very end (after the
# coverage table) with their failing tests, so that the tail of a CI log says
# what failed and why.
failed=""
fail() { failed="$failed $1"; }
meson test -C build --num-processes 2 --print-errorlogs || fail tests

echo "== fuzz (libFuzzer under ASan+UBSan, build-fuzz/, FL_FUZZ_SECONDS=${FL_FUZZ_SECONDS:-25} per reader)"
# Separate build directory: clang, -Dfuzz=true (meson_options.txt).  Every
# reader runs its seed and regression corpora, then mutates for a bounded
# time; any crash, sanitizer report, leak, slow input or big allocation is a
# finding and fails the run (fuzz/meson.build, fuzz/run_fuzz.sh).
if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Dfuzz=true >/dev/null
fi
if nice -n 5 ninja -C build-fuzz >/dev/null; then
    if ! meson test -C build-fuzz --suite fuzz --num-processes 2; then
        fail fuzz
        grep -h -E "^SUMMARY|Test unit written|ERROR: libFuzzer|^gsl: " \
            build-fuzz/meson-logs/testlog.txt || true
    fi
else
    echo "fuzz build failed"; fail fuzz-build
fi

echo "== valgrind setup (plain programs and command runs)"
meson test -C build --setup valgrind --num-processes 2 --print-errorlogs || fail valgrind

echo "== install: staged meson install, pkg-config consumer, installed command from /"
tests/install_check.sh . build || fail install

echo "== coverage (gcovr, floor in gcovr.cfg)"
gcovr --config gcovr.cfg build || fail coverage

echo "== Criterion synthesis, all test programs"
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

status=0
if [ -n "$failed" ]; then
    status=1
    echo "== FAILED:$failed"
    for log in tests:build/meson-logs/testlog.json \
               fuzz:build-fuzz/meson-logs/testlog.json \
               valgrind:build/meson-logs/testlog-valgrind.json; do
        case " $failed " in *" ${log%%:*} "*)
            /usr/bin/python3 tests/failed_tests.py "${log%%:*}" "${log#*:}" || true ;;
        esac
    done
else
    echo "== every stage passed"
fi
echo "test.sh: $((SECONDS / 60)) min $((SECONDS % 60)) s on $(nproc) cores (README quotes this line)"
exit $status
