#!/bin/sh
# install_headers.sh SRCROOT BUILDDIR — the installed header set: a staged
# `meson install --destdir` (outside the build tree), then
# tests/check_layers.sh SRCROOT <includedir>/frictionlab: the installed
# headers are exactly frictionlab.h and the public headers (fl_headers of
# each layer's meson.build), no *_internal.h is installed, and frictionlab.h
# includes every public header and no other.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
stage=$(mktemp -d /tmp/frictionlab-headers.XXXXXX)
trap 'rm -rf "$stage"' EXIT
meson install -C "$build" --destdir "$stage" --quiet --no-rebuild > "$stage.log" 2>&1 ||
    { cat "$stage.log"; rm -f "$stage.log"; echo "FAIL: meson install"; exit 1; }
rm -f "$stage.log"
inc=$(find "$stage" -type f -path '*/include/frictionlab/frictionlab.h' | head -n 1)
[ -n "$inc" ] || { echo "FAIL: no include/frictionlab/frictionlab.h installed"; exit 1; }
sh "$src/tests/check_layers.sh" "$src" "$(dirname "$inc")"
