#!/bin/sh
# xval_expect.sh — run `frictionlab crosscheck --solver-cmd ...` and check
# its PASS/FAIL lines against expectations.
#
#   xval_expect.sh [EXPECT ...] -- COMMAND [ARG ...]
#
# EXPECT is one of
#   pass:RE          at least one line "PASS <name>" with <name> matching RE
#                    (grep -E, anchored at the name), and no "FAIL" line for RE
#   fail:RE:REASON   at least one line "FAIL <name> ..." with <name> matching
#                    RE whose text matches REASON, and no "PASS" line for RE
#   somefail:RE:REASON  at least one FAIL line for RE matching REASON
#   exit:N           COMMAND exits with N
#   last:RE          the last line of stdout matches RE
#   file:PATH        PATH exists and is not empty after the run
#   contains:PATH:RE PATH has a line matching RE (grep -E; PATH without ':')
# Prints every unmet expectation and the output, exits 1 if any.
exp=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    exp="$exp
$1"
    shift
done
if [ "$1" != "--" ] || [ $# -lt 2 ]; then
    echo "usage: xval_expect.sh [EXPECT ...] -- COMMAND [ARG ...]" >&2
    exit 2
fi
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/out" 2>"$tmp/err"
got=$?
fail=0
echo "$exp" | while IFS= read -r e; do
    [ -z "$e" ] && continue
    kind=${e%%:*}
    rest=${e#*:}
    case $kind in
    pass)
        grep -Eq "^PASS ($rest)( |\$)" "$tmp/out" || { echo "xval_expect: no PASS line for /$rest/"; echo x >>"$tmp/bad"; }
        if grep -Eq "^FAIL ($rest)( |\$)" "$tmp/out"; then
            echo "xval_expect: FAIL line(s) for /$rest/:"; grep -E "^FAIL ($rest)( |\$)" "$tmp/out"; echo x >>"$tmp/bad"
        fi ;;
    fail|somefail)
        re=${rest%%:*}
        why=${rest#*:}
        grep -E "^FAIL ($re) " "$tmp/out" | grep -Eq -- "$why" || { echo "xval_expect: no FAIL line for /$re/ matching /$why/"; echo x >>"$tmp/bad"; }
        if [ "$kind" = fail ] && grep -Eq "^PASS ($re)( |\$)" "$tmp/out"; then
            echo "xval_expect: PASS line(s) for /$re/ (expected all to fail):"; grep -E "^PASS ($re)( |\$)" "$tmp/out"; echo x >>"$tmp/bad"
        fi ;;
    exit)
        [ "$got" -eq "$rest" ] || { echo "xval_expect: exit status $got, expected $rest"; echo x >>"$tmp/bad"; } ;;
    last)
        tail -n 1 "$tmp/out" | grep -Eq -- "$rest" || { echo "xval_expect: last line does not match /$rest/"; echo x >>"$tmp/bad"; } ;;
    file)
        [ -s "$rest" ] || { echo "xval_expect: $rest missing or empty"; echo x >>"$tmp/bad"; } ;;
    contains)
        path=${rest%%:*}
        re=${rest#*:}
        grep -Eq -- "$re" "$path" 2>/dev/null || { echo "xval_expect: no line of $path matches /$re/"; echo x >>"$tmp/bad"; } ;;
    *)
        echo "xval_expect: unknown expectation '$e'"; echo x >>"$tmp/bad" ;;
    esac
done >&2
if [ -e "$tmp/bad" ]; then
    fail=1
    echo "--- stdout:" >&2
    cat "$tmp/out" >&2
    echo "--- stderr:" >&2
    tail -n 30 "$tmp/err" >&2
fi
exit $fail
