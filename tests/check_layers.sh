#!/bin/sh
# check_layers.sh SRCROOT — fails on any #include that points up the layers
# (README, Layout):
#
#   core <- io <- reference <- optimized <- drivers <- testkit, models <- checks
#        <- cli, bench, tests, examples, fuzz
#
# A file may include from its own directory and from the layers to its left.
# The top-level directories (cli, bench, tests, examples, fuzz) do not include
# each other, except that the command runs the benchmarks (cli may include
# bench/bench.h) and tests/test_framework.c tests the command's framework
# (cli/cli.h and cli/check_run.h, linked from the cli library).  testkit and models do not include each other.  A quoted
# include is resolved as the compiler does: "layer/file.h" from the source
# root; a bare "file.h" from the including file's directory, then core/ and
# io/ (the library's include path), then any unique file of that name in the
# tree; a name found nowhere is a system or third-party header.  Also fails
# when a test program compiles a cli/ source file.
set -u
root=${1:-.}
cd "$root" || exit 2

rank() {
    case "$1" in
        core) echo 0 ;;
        io) echo 1 ;;
        reference) echo 2 ;;
        optimized) echo 3 ;;
        drivers) echo 4 ;;
        testkit|models) echo 5 ;;
        checks) echo 6 ;;
        cli|bench|tests|examples|fuzz) echo 7 ;;
        *) echo "" ;;
    esac
}

report=$(mktemp)
trap 'rm -f "$report"' EXIT
for dir in core io reference optimized drivers testkit models checks cli bench tests examples fuzz; do
    [ -d "$dir" ] || continue
    find "$dir" -name '*.[ch]' | sort
done | while read -r f; do
    layer=${f%%/*}
    fdir=$(dirname "$f")
    frank=$(rank "$layer")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    while read -r inc; do
        target=
        case "$inc" in
            */*) [ -f "$inc" ] && target=$inc ;;
        esac
        if [ -z "$target" ]; then
            if [ -f "$fdir/$inc" ]; then target="$fdir/$inc"
            elif [ -f "core/$inc" ]; then target="core/$inc"
            elif [ -f "io/$inc" ]; then target="io/$inc"
            else
                target=$(find core io reference optimized drivers testkit models checks cli bench tests examples fuzz \
                              -name "$(basename "$inc")" 2>/dev/null | head -n 1)
            fi
        fi
        [ -n "$target" ] || continue
        tlayer=${target%%/*}
        trank=$(rank "$tlayer")
        [ -n "$trank" ] || continue
        ok=1
        if [ "$trank" -gt "$frank" ]; then ok=0
        elif [ "$trank" -eq "$frank" ] && [ "$tlayer" != "$layer" ]; then
            ok=0
            [ "$layer" = cli ] && [ "$target" = bench/bench.h ] && ok=1
            # the test of the command's own framework, linked with the cli library
            # (cli.h, and check_run.h: how checks/ results reach it)
            [ "$f" = tests/test_framework.c ] && { [ "$target" = cli/cli.h ] || [ "$target" = cli/check_run.h ]; } && ok=1
        fi
        [ "$ok" = 1 ] || echo "$f includes \"$inc\" ($target): $layer may not include $tlayer" >> "$report"
    done
done
if grep -n "/ 'cli' /" tests/meson.build > /dev/null 2>&1; then
    grep -n "/ 'cli' /" tests/meson.build | sed 's/^/tests\/meson.build:/; s/$/ (a test compiles a cli source)/' >> "$report"
fi
if [ -s "$report" ]; then
    cat "$report"
    echo "FAIL: $(wc -l < "$report") upward includes"
    exit 1
fi
echo "PASS: no file includes upward"
