#!/bin/sh
# help_doc_sync.sh — every option printed by a subcommand's --help is in the
# generated man page and in the generated bash completion.  The options are
# read from the --help output (lines "  --name" or "  -x" under "options"),
# not from the tables they are generated from, so the check is independent.
#   help_doc_sync.sh FRICTIONLAB MANPAGE COMPLETION
set -u
fl=$1
man=$2
comp=$3
status=0
n=0
for sub in reproduce crosscheck bench "bench suite" "bench merge" solve convert; do
    # shellcheck disable=SC2086
    help=$("$fl" $sub --help) || { echo "help_doc_sync: '$sub --help' failed" >&2; status=1; continue; }
    opts=$(printf '%s\n' "$help" | sed -n '/^options/,/^$/p' | grep -oE '^  (-[a-z]|--[a-z][a-z-]*)' |
           sed 's/^  //')
    [ -n "$opts" ] || { echo "help_doc_sync: '$sub --help' prints no options" >&2; status=1; }
    for o in $opts; do
        n=$((n + 1))
        esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -- "^\\.B $esc\\b" "$man" ||
            { echo "help_doc_sync: '$sub' option $o is not in the man page $man" >&2; status=1; }
        grep -qE -- "(\"| )$o( |\")" "$comp" ||
            { echo "help_doc_sync: '$sub' option $o is not in the bash completion $comp" >&2; status=1; }
    done
done
[ $status -eq 0 ] && echo "help_doc_sync: $n options of --help found in the man page and the completion"
exit $status
