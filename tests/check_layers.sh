#!/bin/sh
# check_layers.sh SRCROOT [INCLUDEDIR] — fails on any #include that points up
# the layers (README, Layout):
#
#   core <- io <- reference <- optimized <- drivers <- testkit, models <- checks
#        <- cli, bench, tests, examples, fuzz
#   core <- io <- report <- checks, cli, bench, tests, examples, fuzz
#
# report/ (the results of a run) includes only core/ and io/, and no layer
# from reference/ to models/ includes report/.
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
#
# Public and internal headers.  The public headers are those each layer's
# meson.build lists in fl_headers (installed); a twin-internal header is
# named <module>_internal.h and is never listed.  Every header of a library
# layer is one of the two, or one of the header-only generators of
# testkit/ (fclib_*.h: static functions for bench/, checks/ and tests/, not
# installed).  frictionlab.h includes every public header and nothing else.
# With INCLUDEDIR (<includedir>/frictionlab of a staged `meson install`,
# tests/install_check.sh, tests/install_headers.sh), the installed header
# set is exactly frictionlab.h and the public headers, and no
# *_internal.h is installed.
set -u
root=${1:-.}
installed=${2:-}
cd "$root" || exit 2

rank() {
    case "$1" in
        core) echo 0 ;;
        io) echo 1 ;;
        reference|report) echo 2 ;;
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
for dir in core io report reference optimized drivers testkit models checks cli bench tests examples fuzz; do
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
            elif [ -f "report/$inc" ]; then target="report/$inc"
            else
                target=$(find core io report reference optimized drivers testkit models checks cli bench tests examples fuzz \
                              -name "$(basename "$inc")" 2>/dev/null | head -n 1)
            fi
        fi
        [ -n "$target" ] || continue
        tlayer=${target%%/*}
        trank=$(rank "$tlayer")
        [ -n "$trank" ] || continue
        ok=1
        if [ "$tlayer" = report ]; then
            case "$layer" in reference|optimized|drivers|testkit|models) ok=0 ;; esac
        fi
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
# ---- public and internal headers ----
# The public list, as installed paths relative to <includedir>/frictionlab:
# core/, io/, report/ headers flat, the other layers under <layer>/
# (meson.build, Headers).
public=$(mktemp)
want=$(mktemp)
got=$(mktemp)
trap 'rm -f "$report" "$public" "$want" "$got"' EXIT
for layer in core io report reference optimized drivers testkit models checks; do
    [ -f "$layer/meson.build" ] || continue
    awk '/fl_headers[ \t]*\+=/ {on = 1} on {print} on && /\)\}/ {on = 0}' "$layer/meson.build" |
        grep -o "'[^']*\.h'" | tr -d "'" |
    while read -r h; do
        case "$layer" in core|io|report) echo "$h" ;; *) echo "$layer/$h" ;; esac
    done
done | sort > "$public"
while read -r p; do
    case "$p" in
        */*) src=$p ;;
        *) src=; for l in core io report; do [ -f "$l/$p" ] && src="$l/$p"; done ;;
    esac
    [ -n "$src" ] && [ -f "$src" ] || echo "meson.build lists $p in fl_headers: no such header" >> "$report"
    case "$p" in *_internal.h) echo "$p is listed as public (fl_headers): an internal header is never installed" >> "$report" ;; esac
done < "$public"
for layer in core io report reference optimized drivers testkit models checks; do
    [ -d "$layer" ] || continue
    for h in "$layer"/*.h; do
        [ -f "$h" ] || continue
        case "$h" in
            *_internal.h) continue ;;
            testkit/fclib_*.h) continue ;;   # header-only generators, not installed
        esac
        case "$layer" in core|io|report) p=${h#*/} ;; *) p=$h ;; esac
        grep -qxF "$p" "$public" ||
            echo "$h is neither public (fl_headers of $layer/meson.build) nor <module>_internal.h" >> "$report"
    done
done
# frictionlab.h includes exactly the public headers
sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' frictionlab.h | sort > "$want"
grep -vxF -f "$public" "$want" | sed 's/^/frictionlab.h includes a header that is not public: /' >> "$report"
grep -vxF -f "$want" "$public" | sed 's/^/frictionlab.h does not include the public header /' >> "$report"
# the installed set (with INCLUDEDIR)
if [ -n "$installed" ]; then
    if [ -d "$installed" ]; then
        (cd "$installed" && find . -type f | sed 's|^\./||' | sort) > "$got"
        (echo frictionlab.h; cat "$public") | sort > "$want"
        grep -vxF -f "$got" "$want" | sed "s|^|installed: missing from $installed: |" >> "$report"
        grep -vxF -f "$want" "$got" | grep -v '_internal\.h$' |
            sed "s|^|installed: not a public header, yet in $installed: |" >> "$report"
        grep '_internal\.h$' "$got" | sed "s|^|installed: an internal header is installed in $installed: |" >> "$report"
    else
        echo "installed: $installed is not a directory" >> "$report"
    fi
fi
if [ -s "$report" ]; then
    cat "$report"
    echo "FAIL: $(wc -l < "$report") problems (upward includes, public/internal headers)"
    exit 1
fi
echo "PASS: no file includes upward; frictionlab.h includes exactly the $(wc -l < "$public") public headers${installed:+, the installed ones}"
