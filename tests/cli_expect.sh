#!/bin/sh
# cli_expect.sh — run a command and check its exit status and its output.
#
#   cli_expect.sh [--last] STATUS REGEX COMMAND [ARG ...]
#
# Passes (exit 0) when COMMAND exits with STATUS and REGEX (an extended
# regular expression, grep -E) matches a line of its output: stdout and
# stderr together, or with --last only the last line of stdout (e.g. the
# "N passed, M failed" summary of frictionlab).  Otherwise prints what was
# expected and what came out, and exits 1.
last=0
if [ "$1" = "--last" ]; then
    last=1
    shift
fi
if [ $# -lt 3 ]; then
    echo "usage: cli_expect.sh [--last] STATUS REGEX COMMAND [ARG ...]" >&2
    exit 2
fi
want=$1
regex=$2
shift 2

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/out" 2>"$tmp/err"
got=$?

fail=0
if [ "$got" -ne "$want" ]; then
    echo "cli_expect: '$*' exited with $got, expected $want" >&2
    fail=1
fi
if [ "$last" -eq 1 ]; then
    tail -n 1 "$tmp/out" >"$tmp/match"
    where="the last line of stdout"
else
    cat "$tmp/out" "$tmp/err" >"$tmp/match"
    where="the output"
fi
if ! grep -Eq -- "$regex" "$tmp/match"; then
    echo "cli_expect: no line of $where of '$*' matches /$regex/" >&2
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    echo "--- stdout:" >&2
    cat "$tmp/out" >&2
    echo "--- stderr:" >&2
    cat "$tmp/err" >&2
fi
exit $fail
