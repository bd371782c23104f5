#!/bin/sh
# doc_commands.sh — run the commands that README.md and doc/*.md show, as
# written, and check the links between those pages.
#
#   doc_commands.sh SOURCE_ROOT BUILD_DIR [--list | --links] [--timeout S]
#
# How a page marks its commands (the fence's info string):
#
#   ```sh          runnable: every command of the block is run
#   ```sh long     runnable but long (over about 10 s each on a loaded 2-core
#                  machine; the block's comments say how long): listed as
#                  NOT RUN (long), to keep this test near 2 minutes
#   ```sh setup    changes the machine or the tree (installs packages,
#                  builds, installs, commits): listed as NOT RUN (setup);
#                  ./run.sh and ./test.sh do these steps themselves
#   ```sh test     runs meson test or a test script (./test.sh runs these;
#                  run from inside meson test they would nest): NOT RUN (test)
#   ```text, ```c, ```console, ...   not commands (usage, output, code)
#
# A fence without an info string, any other "sh ..." info string, or a line
# that starts with four spaces and "frictionlab" / "build/" outside a fence
# (an indented command block, which this script could not see) is an error:
# nothing is skipped silently.  In a runnable block a line ending in "\"
# continues on the next; empty lines and lines starting with "#" are
# ignored; every other line is one command, run through /bin/sh.
#
# Each command runs "from the repository root after ./run.sh's build": in a
# scratch directory that holds a symbolic link to every top-level entry of
# SOURCE_ROOT (except build/ and out/) and build -> BUILD_DIR, so that
# build/frictionlab is the command just built and what a command writes
# (out/, converted files) lands in the scratch directory, not in the source
# tree.  A command gets S seconds (default 60, FL_DOC_TIMEOUT); a non-zero
# exit status or the time limit fails the test, which prints the command's
# last lines of output.
#
# Links: every relative link [..](path) or [..](path#anchor) of these pages
# must name an existing file, and an anchor into a .md page must match one of
# its headings (GitHub's rule: lower case, ASCII punctuation dropped, spaces
# become "-").  --list prints the commands and the NOT RUN blocks, runs
# nothing and checks nothing; --links checks the pages and their links only.
set -u
if [ $# -lt 2 ]; then
    echo "usage: doc_commands.sh SOURCE_ROOT BUILD_DIR [--list | --links] [--timeout S]" >&2
    exit 2
fi
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
shift 2
list=0
links=0
limit=${FL_DOC_TIMEOUT:-60}
while [ $# -gt 0 ]; do
    case $1 in
        --list) list=1 ;;
        --links) links=1 ;;
        --timeout) shift; limit=$1 ;;
        *) echo "doc_commands.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cd "$src" || exit 2
pages="README.md $(ls doc/*.md)"

# One record per command or NOT RUN block, tab-separated:
#   RUN <tab> page:line <tab> command
#   SKIP <tab> page:line <tab> reason
#   ERROR <tab> page:line <tab> message
for p in $pages; do
    awk -v page="$p" '
    function flush() {
        if (cmd != "") print "RUN\t" page ":" cline "\t" cmd
        cmd = ""
    }
    BEGIN { infence = 0; cmd = "" }
    /^[ ]*```/ {
        line = $0
        sub(/^[ ]*```[ ]*/, "", line)
        if (!infence) {
            infence = 1; kind = "other"
            if (line == "") {
                print "ERROR\t" page ":" NR "\ta fence without an info string (say sh, text, c, ...)"
            } else if (line == "sh") {
                kind = "run"
            } else if (line == "sh long" || line == "sh setup" || line == "sh test") {
                kind = "skip"
                split(line, w, " ")
                print "SKIP\t" page ":" NR "\t" w[2]
            } else if (line ~ /^(sh|bash|shell)([ ]|$)/) {
                print "ERROR\t" page ":" NR "\tunknown info string \"" line "\" (sh, sh long, sh setup or sh test)"
            }
            next
        }
        flush(); infence = 0; next
    }
    infence && kind == "run" {
        l = $0
        if (cmd == "") {
            if (l ~ /^[ ]*(#|$)/) next
            cline = NR
        }
        if (l ~ /\\$/) { sub(/\\$/, "", l); cmd = cmd l; next }
        cmd = cmd l
        flush()
        next
    }
    !infence && /^    (frictionlab|build\/|\.\/)/ {
        print "ERROR\t" page ":" NR "\tan indented command block: put it in a ```sh fence"
    }
    END { if (infence) print "ERROR\t" page ":" NR "\tunclosed fence" }
    ' "$p"
done > "$tmp/records"

status=0
if grep -q '^ERROR' "$tmp/records"; then
    grep '^ERROR' "$tmp/records" | cut -f2- | sed 's/\t/: /; s/^/ERROR /'
    status=1
fi
nrun=$(grep -c '^RUN' "$tmp/records")
if [ "$nrun" -eq 0 ]; then
    echo "ERROR no runnable command found in $pages"
    status=1
fi

if [ "$list" -eq 1 ]; then
    awk -F '\t' '$1 == "RUN" { print "RUN     " $2 ": " $3 }
                 $1 == "SKIP" { print "NOT RUN " $2 ": block marked " $3 }' "$tmp/records"
    exit $status
fi

# Links between the pages.
for p in $pages; do
    dir=$(dirname "$p")
    grep -o '](\([^)# ]*\)\(#[^) ]*\)\?)' "$p" | sed 's/^](//; s/)$//' | while read -r target; do
        case $target in
            http://*|https://*|mailto:*|'') continue ;;
        esac
        file=${target%%#*}
        anchor=
        case $target in *'#'*) anchor=${target#*#} ;; esac
        if [ -z "$file" ]; then path=$p; else path=$dir/$file; fi
        if [ ! -e "$path" ]; then
            echo "BROKEN LINK $p: ($target): no file $path"
            continue
        fi
        if [ -n "$anchor" ] && [ "${path%.md}" != "$path" ]; then
            if ! grep '^#' "$path" | LC_ALL=C awk '{
                    sub(/^#+[ ]*/, ""); s = tolower($0)
                    gsub(/[!-,.\/:-@[-^`{-~]/, "", s); gsub(/ /, "-", s); print s }' |
                 grep -qxF -- "$anchor"; then
                echo "BROKEN LINK $p: ($target): no heading #$anchor in $path"
            fi
        fi
    done
done > "$tmp/links"
if [ -s "$tmp/links" ]; then
    cat "$tmp/links"
    status=1
fi
if [ "$links" -eq 1 ]; then
    [ "$status" -eq 0 ] && echo "pages and links: ok"
    exit $status
fi

# The scratch repository root.
root=$tmp/root
mkdir "$root"
for e in "$src"/* "$src"/.[!.]*; do
    [ -e "$e" ] || continue
    b=$(basename "$e")
    case $b in build|out|.git) continue ;; esac
    ln -s "$e" "$root/$b"
done
ln -s "$build" "$root/build"

passed=0
failed=0
start=$(date +%s)
tab=$(printf '\t')
grep '^RUN' "$tmp/records" > "$tmp/run"
while IFS="$tab" read -r kind where cmd; do
    t0=$(date +%s)
    (cd "$root" && timeout -k 5 "$limit" /bin/sh -c "$cmd") > "$tmp/log" 2>&1 < /dev/null
    rc=$?
    t1=$(date +%s)
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok      $where ($((t1 - t0)) s): $cmd"
    else
        failed=$((failed + 1))
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            why="timed out after $limit s"
        else
            why="exit status $rc"
        fi
        echo "FAIL    $where ($((t1 - t0)) s, $why): $cmd"
        tail -n 15 "$tmp/log" | sed 's/^/    | /'
    fi
done < "$tmp/run"
awk -F '\t' '$1 == "SKIP" { print "NOT RUN " $2 ": block marked " $3 }' "$tmp/records"
nskip=$(grep -c '^SKIP' "$tmp/records")
echo "$passed passed, $failed failed, $nskip blocks not run, in $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ] || status=1
exit $status
