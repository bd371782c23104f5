#!/bin/sh
# xval_quoted_stderr.sh — a FAIL line of `crosscheck --solver-cmd` quotes the
# solver's last stderr line whole: the example Python solver run without
# its module says "<its path>: the frictionlab module cannot be imported
# (...) ... run Debian's /usr/bin/python3", over 200 bytes with the source
# path in front.  (The quote held 199 bytes and kept the end, so it began
# "he frictionlab module ...".)  Removes the failing problems' directory.
#
#   xval_quoted_stderr.sh FRICTIONLAB PYTHON SOLVER.py OUTDIR
set -u
fl=$1 py=$2 solver=$3 out=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
env -u PYTHONPATH "$fl" crosscheck --family random --systems 1 --out "$out" \
    --solver-cmd "$py $solver {in} {out}" >"$tmp/out" 2>"$tmp/err"
rc=$?
kept=$(sed -n 's/^crosscheck --solver-cmd: failing problems kept in \(\/tmp\/frictionlab-crosscheck-[A-Za-z0-9]*\)$/\1/p' "$tmp/err")
[ -n "$kept" ] && rm -rf "$kept"
said="$solver: the frictionlab module cannot be imported (No module named 'frictionlab'): build it (ninja -C build) and set PYTHONPATH=build/python, or meson install it (doc/python.md); run Debian's /usr/bin/python3"
[ ${#said} -gt 200 ] || { echo "xval_quoted_stderr: the message is only ${#said} bytes: not a test of the cut" >&2; exit 1; }
if [ "$rc" != 1 ] || ! grep -q '^FAIL random[.]' "$tmp/out"; then
    echo "xval_quoted_stderr: expected FAIL lines and exit 1 (got $rc)" >&2
    cat "$tmp/out" "$tmp/err" >&2
    exit 1
fi
if ! grep -Fq "solver's stderr: \"$said\"" "$tmp/out"; then
    echo "xval_quoted_stderr: the solver's stderr line is not quoted whole:" >&2
    echo "  want: $said" >&2
    grep -o "solver's stderr: \"[^\"]*\"" "$tmp/out" | head -1 | sed 's/^/  got:  /' >&2
    exit 1
fi
echo "xval_quoted_stderr: the ${#said}-byte stderr line quoted whole"
