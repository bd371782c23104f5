#!/usr/bin/env bash
# run.sh — set up, build, and run the main job: reproduce every example of
# the papers into out/ (see README.md).
set -euo pipefail
cd "$(dirname "$0")"
. ./setup.sh
fl_install_packages
fl_configure build false
ninja -C build
status=0
./build/frictionlab reproduce --all --out out "$@" || status=$?
echo "run.sh: $((SECONDS / 60)) min $((SECONDS % 60)) s on $(nproc) cores"
echo "report: $PWD/out/report.html"
exit $status
