# bash completion for frictionlab(1): subcommands, options, the names of
# reproduce examples, benchmarks and crosscheck laws (asked of the command
# itself with --list, so the lists never go stale), and files.
# Installed as share/bash-completion/completions/frictionlab; from a source
# tree: . doc/frictionlab.bash

_frictionlab_names()
{
    # $1: the command as typed, $2: the subcommand
    "$1" "$2" --list 2>/dev/null | while read -r name _; do printf '%s\n' "$name"; done
}

_frictionlab()
{
    local cur prev cmd sub
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[0]}
    sub=${COMP_WORDS[1]}
    COMPREPLY=()

    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "reproduce crosscheck bench solve convert help --help --version" -- "$cur"))
        return 0
    fi
    case "$prev" in
        --out|--baseline)
            if [ "$prev" = --out ] && [ "$sub" != solve ]; then
                COMPREPLY=($(compgen -d -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            return 0 ;;
        --law)
            if [ "$sub" = crosscheck ]; then
                COMPREPLY=($(compgen -W "all $(_frictionlab_names "$cmd" crosscheck)" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "nsgs" -- "$cur"))
            fi
            return 0 ;;
        --impl)
            COMPREPLY=($(compgen -W "reference optimized" -- "$cur"))
            return 0 ;;
        --solver)
            COMPREPLY=($(compgen -W "auto gs newton" -- "$cur"))
            return 0 ;;
        --systems|--seed|--solver-cmd|--tol|--max-sweeps|--max-newton|--guess|--max-memory)
            return 0 ;;
    esac
    case "$sub" in
        reproduce)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--all --quick --out --baseline --list --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$(_frictionlab_names "$cmd" reproduce)" -- "$cur"))
            fi ;;
        bench)
            if [[ ${COMP_WORDS[2]} == suite && $COMP_CWORD -gt 2 ]]; then
                COMPREPLY=($(compgen -W "--solver --ours --peer --set --corpus --tol --time-limit --norm --quick --full --max-iter -j --shard --seed --out --help" -- "$cur"))
            elif [[ ${COMP_WORDS[2]} == merge && $COMP_CWORD -gt 2 ]]; then
                COMPREPLY=($(compgen -W "--out --help" -- "$cur") $(compgen -d -- "$cur"))
            elif [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--all --quick --out --list --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "suite merge $(_frictionlab_names "$cmd" bench)" -- "$cur"))
            fi ;;
        crosscheck)
            COMPREPLY=($(compgen -W "--law --systems --seed --solver-cmd --list --help" -- "$cur")) ;;
        solve)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--solver --impl --tol --max-sweeps --max-newton --guess --max-memory --out --law --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -X '!*.@(hdf5|h5|dat)' -- "$cur") $(compgen -d -- "$cur"))
            fi ;;
        convert)
            # IN: a problem file; OUT: any name (its extension picks the format)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--max-memory --help" -- "$cur"))
            elif [ "$COMP_CWORD" -eq 2 ]; then
                COMPREPLY=($(compgen -f -X '!*.@(hdf5|h5|dat)' -- "$cur") $(compgen -d -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        help)
            [ "$COMP_CWORD" -eq 2 ] &&
                COMPREPLY=($(compgen -W "reproduce crosscheck bench solve convert" -- "$cur")) ;;
    esac
    return 0
}
complete -F _frictionlab frictionlab
