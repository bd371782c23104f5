#!/usr/bin/python3
"""failed_tests.py STAGE TESTLOG.json [LINES] -- the tests of one meson run
that did not pass, each with the last LINES (default 12) lines of its output.

test.sh prints this at its very end, after the coverage table, so that a CI
log shown by its tail still says which test failed and why.  A test passes
when meson says OK or EXPECTEDFAIL; everything else (FAIL, ERROR -- valgrind's
exit code 99 --, TIMEOUT, SKIP, ...) is listed.  Exit status: 1 when some
test did not pass, 0 otherwise, 2 when the log cannot be read.
"""
import json
import sys


def tail(text, lines):
    kept = [l for l in (text or "").splitlines() if l.strip()]
    return kept[-lines:]


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    stage, path = argv[1], argv[2]
    lines = int(argv[3]) if len(argv) == 4 else 12
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            runs = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        print(f"{stage}: cannot read {path}: {e}")
        return 2
    bad = [r for r in runs if r.get("result") not in ("OK", "EXPECTEDFAIL")]
    for r in bad:
        print(f"{stage}: {r.get('name')}: {r.get('result')} "
              f"(exit {r.get('returncode')}, {r.get('duration', 0):.1f} s)")
        for l in tail(r.get("stdout"), lines) + tail(r.get("stderr"), lines):
            print(f"    {l[:300]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
