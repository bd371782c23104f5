#!/bin/bash
# completion.sh — the bash completion of frictionlab (doc/frictionlab.bash):
# subcommands, reproduce example names, crosscheck laws, options.
#   completion.sh FRICTIONLAB COMPLETION_FILE
set -u
fl=$1
shopt -s extglob
. "$2" || exit 1
status=0
# expect "WORDS..." "EXPECTED WORD": completing the last word of WORDS offers EXPECTED
expect() {
    local words=$1 want=$2
    read -r -a COMP_WORDS <<<"$words"
    [[ $words == *" " ]] && COMP_WORDS+=("")
    COMP_WORDS[0]=$fl
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _frictionlab
    local w
    for w in "${COMPREPLY[@]}"; do [ "$w" = "$want" ] && return 0; done
    echo "completion: '$words' does not offer '$want' (got: ${COMPREPLY[*]:-nothing})" >&2
    status=1
}
expect "frictionlab rep" reproduce
expect "frictionlab cross" crosscheck
expect "frictionlab reproduce example_3" example_3_15
expect "frictionlab reproduce poly" polyurethane_damping
expect "frictionlab reproduce --bas" --baseline
expect "frictionlab crosscheck --law " moreau
expect "frictionlab crosscheck --law " all
expect "frictionlab bench stab" stability
expect "frictionlab bench su" suite
expect "frictionlab bench suite --time" --time-limit
expect "frictionlab bench merge --o" --out
expect "frictionlab help cr" crosscheck
expect "frictionlab solve --impl " optimized
# nothing for a subcommand that takes no names
COMP_WORDS=("$fl" reproduce --systems ""); COMP_CWORD=3; COMPREPLY=(); _frictionlab
[ ${#COMPREPLY[@]} -eq 0 ] || { echo "completion: offered words for --systems" >&2; status=1; }
[ $status -eq 0 ] && echo "completion: subcommands, examples, laws, options offered"
exit $status
