#!/bin/sh
# install_doc.sh — `meson install` puts frictionlab(1) under share/man/man1
# and the bash completion under share/bash-completion/completions, and
# `man` reads the installed page; the page generated in the build tree is free of
# roff warnings.
#   install_doc.sh BUILDDIR SOURCEDIR DESTDIR
set -u
build=$1
src=$2
dest=$3
rm -rf "$dest"
warn=$(groff -man -Tutf8 -ww -z "$build/doc/frictionlab.1" 2>&1)
if [ -n "$warn" ]; then
    echo "install_doc: roff warnings in the generated doc/frictionlab.1:" >&2
    echo "$warn" >&2
    exit 1
fi
if ! meson install -C "$build" --no-rebuild --destdir "$dest" >"$dest.log" 2>&1; then
    echo "install_doc: meson install failed:" >&2
    cat "$dest.log" >&2
    exit 1
fi
page=$(find "$dest" -path '*/share/man/man1/frictionlab.1*' | head -n 1)
comp=$(find "$dest" -path '*/share/bash-completion/completions/frictionlab' | head -n 1)
[ -n "$page" ] || { echo "install_doc: no share/man/man1/frictionlab.1 under $dest" >&2; exit 1; }
[ -n "$comp" ] || { echo "install_doc: no bash completion under $dest" >&2; exit 1; }
# man finds the page by name once its man directory is on MANPATH
mandir=${page%/man1/*}
out=$(MANPATH="$mandir" MANWIDTH=80 man frictionlab 2>&1)
echo "$out" | grep -q "^SYNOPSIS" || { echo "install_doc: 'man frictionlab' shows no SYNOPSIS:" >&2; echo "$out" | head >&2; exit 1; }
echo "$out" | grep -q "baseline" || { echo "install_doc: the page lacks --baseline" >&2; exit 1; }
bash -n "$comp" || exit 1
echo "install_doc: $page and $comp installed; man frictionlab reads it"
