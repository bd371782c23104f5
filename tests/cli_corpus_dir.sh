#!/bin/sh
# cli_corpus_dir.sh FRICTIONLAB SRCROOT — `crosscheck --family corpus
# --corpus DIR` on a directory that has no manifest (sizes.tsv): the
# command lists its *.dat and *.hdf5 files and reads their sizes itself.
# Four corpus files are copied; Capsules-i125-1213.hdf5 has 286 contacts
# (tests/data/siconos/sizes.tsv, as libfclib reads it), more than a quick
# run draws (100), so the quick run checks 3 problems and --full all 4.
# Run from /tmp, so nothing is found relative to the working directory.
set -u
fl=$1
src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
for f in FrictionContact3D_1c.dat FC3D_Example1.dat Capsules-i125-1213.hdf5 Rover1039.dat; do
    cp "$src/tests/data/siconos/$f" "$tmp/" || exit 1
done
echo "not a problem" > "$tmp/notes.txt"
solver="$fl solve {in} --out {out} --tol 1e-10 > /dev/null"
fail=0
run() { # run WANT_LAST [extra options]
    want=$1
    shift
    last=$(cd /tmp && "$fl" crosscheck --family corpus --corpus "$tmp" "$@" \
               --solver-cmd "$solver" 2>"$tmp/err" | tail -n 1)
    if [ "$last" = "$want" ]; then
        echo "PASS corpus without manifest $*: $last"
    else
        echo "FAIL corpus without manifest $*: last line '$last', expected '$want'"
        cat "$tmp/err"
        fail=1
    fi
}
run "3 passed, 0 failed"
run "4 passed, 0 failed" --full
exit "$fail"
