#!/bin/sh
# cli_special_files.sh FRICTIONLAB — the command on inputs that are not
# regular files, and on a file whose bytes would disturb a terminal.
#   - a FIFO with no writer: `solve` and `convert` refuse it at once (exit 2,
#     "is a pipe"), where an open() without O_NONBLOCK waited for a writer
#     for ever (core/fl_file.h);
#   - a character device (/dev/null): refused, saying which kind;
#   - a Siconos text file whose first token holds control bytes (ESC, SOH):
#     the message shows them as \xNN and carries no raw control byte
#     (core/fl_status.h, fl_error_escape).
# Each run is bounded by `timeout 20`: a hang is a failure (exit 124).
set -u
fl=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

expect() { # expect NAME STATUS REGEX CMD...
    name=$1 want=$2 regex=$3
    shift 3
    timeout 20 "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -Eq -- "$regex" "$tmp/out"; then
        echo "FAIL $name: exit $got (expected $want), output:"; cat "$tmp/out"
        fail=1
    else
        echo "PASS $name"
    fi
}

mkfifo "$tmp/fifo"
expect solve_fifo 2 'is a pipe \(FIFO\), not a regular file' "$fl" solve "$tmp/fifo"
expect convert_fifo 2 'is a pipe \(FIFO\), not a regular file' "$fl" convert "$tmp/fifo" "$tmp/x.hdf5"
expect convert_fifo_fclib 2 'is a pipe \(FIFO\), not a regular file' "$fl" convert "$tmp/fifo" "$tmp/x.dat"
expect solve_char_device 2 'is a character device, not a regular file' "$fl" solve /dev/null

printf 'AB\001\033[31mRED\n' > "$tmp/ctrl.dat"
expect solve_control_bytes 2 'AB\\x01\\x1b\[31mRED' "$fl" solve "$tmp/ctrl.dat"
if timeout 20 "$fl" solve "$tmp/ctrl.dat" 2>&1 | LC_ALL=C grep -q "$(printf '[\001\033]')"; then
    echo "FAIL solve_control_bytes_raw: a raw control byte reached the output"
    fail=1
else
    echo "PASS solve_control_bytes_raw"
fi
# a valid UTF-8 character in a token is kept as it is
printf 'é\n' > "$tmp/utf8.dat"
expect solve_utf8_kept 2 "'é'" "$fl" solve "$tmp/utf8.dat"

[ "$fail" -eq 0 ] && echo "7 passed, 0 failed" || echo "special files: failures above"
exit "$fail"
