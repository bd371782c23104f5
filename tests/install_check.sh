#!/usr/bin/env bash
# install_check.sh SRCROOT BUILDDIR [--all]
#
# The library as a user gets it: `meson install --destdir` into a temporary
# stage (outside the build tree), then
#   0. the installed headers are frictionlab.h and the public headers, no
#      *_internal.h (tests/check_layers.sh SRCROOT INCLUDEDIR); and
#      examples/solve_local.c, which includes only <frictionlab/frictionlab.h>,
#      is built with `pkg-config --cflags --libs frictionlab` alone and runs
#      WITHOUT LD_LIBRARY_PATH (frictionlab.pc carries -Wl,-rpath,${libdir});
#   1. examples/fclib_solve.c is compiled against the staged install with
#      pkg-config only (no -I or -L of the source or build tree) and run on an
#      FCLIB global problem and on a local problem written by the command;
#   2. the installed Python module (python/) is imported from / and solves
#      a problem file;
#   3. the installed command is run from / on `reproduce --quick` of every
#      task (with --all: the full `reproduce --all`); it must find the
#      installed data by itself (no FL_DATA_DIR) and end "N passed, 0 failed".
# The staged frictionlab.pc is copied with prefix= set to the stage, the
# usual way to use a package that is not installed at its prefix.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
full=${3:-}
stage=$(mktemp -d /tmp/frictionlab-stage.XXXXXX)
trap 'rm -rf "$stage"' EXIT

meson install -C "$build" --destdir "$stage" --quiet --no-rebuild
pc=$(find "$stage" -name frictionlab.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL install: no frictionlab.pc installed"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir -p "$stage/pkgconfig"
sed "s|^prefix=.*|prefix=$stage$prefix|" "$pc" > "$stage/pkgconfig/frictionlab.pc"
export PKG_CONFIG_PATH="$stage/pkgconfig"
libdir=$(pkg-config --variable=libdir frictionlab)
bin="$stage$prefix/bin/frictionlab"
[ -x "$bin" ] || { echo "FAIL install: no command at $bin"; exit 1; }
[ -f "$libdir/libfrictionlab.a" ] && [ -e "$libdir/libfrictionlab.so" ] ||
    { echo "FAIL install: shared and static libfrictionlab expected in $libdir"; exit 1; }

cc=${CC:-cc}
echo "== installed headers: frictionlab.h and the public headers only"
sh "$src/tests/check_layers.sh" "$src" "$(pkg-config --variable=includedir frictionlab)/frictionlab"

echo "== examples/solve_local.c: <frictionlab/frictionlab.h>, pkg-config only, no LD_LIBRARY_PATH"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror \
    "$src/examples/solve_local.c" $(pkg-config --cflags --libs frictionlab) -o "$stage/solve_local"
got=$(cd / && env -u LD_LIBRARY_PATH "$stage/solve_local") ||
    { echo "FAIL consumer: solve_local did not run without LD_LIBRARY_PATH: $got"; exit 1; }
# closed form: W = I, q = (-1, 0.5), mu = 0.3: the contact slides, r = (1, -mu)
[ "$got" = "success: r = (1, -0.3)" ] ||
    { echo "FAIL consumer: solve_local printed '$got', expected 'success: r = (1, -0.3)'"; exit 1; }
echo "$got"

echo "== consumer program built with pkg-config only"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L \
    "$src/examples/fclib_solve.c" $(pkg-config --cflags --libs frictionlab) \
    -o "$stage/fclib_solve"
# A static consumer must link the OpenMP runtime of the coloured Gauss-Seidel
# sweep (optimized/nsgs_colored.c): when the archive calls libgomp (GOMP_*
# undefined), `pkg-config --libs --static` must carry -fopenmp (meson puts
# the openmp dependency's link flag in Libs.private).
if nm -u "$libdir/libfrictionlab.a" 2>/dev/null | grep GOMP_ > /dev/null; then
    pkg-config --libs --static frictionlab | grep -- -fopenmp > /dev/null ||
        { echo "FAIL install: libfrictionlab.a calls libgomp, but 'pkg-config --libs --static frictionlab' has no -fopenmp"; exit 1; }
    echo "static consumer: libfrictionlab.a uses OpenMP and Libs.private carries -fopenmp"
fi
# the same program against the static library (a coverage build's archive
# needs the gcov runtime, which the shared library carries itself; grep
# without -q reads all of nm's output, so pipefail sees no SIGPIPE)
gcov=
if nm "$libdir/libfrictionlab.a" 2>/dev/null | grep __gcov_init > /dev/null; then gcov=--coverage; fi
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L \
    "$src/examples/fclib_solve.c" $(pkg-config --cflags frictionlab) \
    "$libdir/libfrictionlab.a" $(pkg-config --libs --static frictionlab | sed 's/-lfrictionlab//') \
    $gcov -o "$stage/fclib_solve_static"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(cd / && "$stage/fclib_solve" "$src/tests/data/fclib/global_small.hdf5")
(cd / && "$bin" solve "$src/tests/data/siconos/two_contacts_3d.dat" --out "$stage/local.hdf5" > /dev/null)
(cd / && "$stage/fclib_solve" "$src/tests/data/siconos/two_contacts_3d.dat" 2> /dev/null) &&
    { echo "FAIL consumer: a Siconos text file was read as FCLIB"; exit 1; }
(cd / && "$stage/fclib_solve_static" "$stage/local.hdf5")

echo "== installed Python module (meson install into the prefix's Python path)"
pyinit=$(find "$stage" -path '*/frictionlab/__init__.py' | head -n 1)
[ -n "$pyinit" ] || { echo "FAIL install: no Python package frictionlab installed"; exit 1; }
pydir=$(dirname "$(dirname "$pyinit")")
(cd / && PYTHONPATH="$pydir" /usr/bin/python3 -c "
import sys, frictionlab as fl
assert fl.__file__.startswith('$stage'), fl.__file__
res = fl.solve(fl.read('$src/tests/data/siconos/two_contacts_2d.dat'))
assert res.converged and res.error <= 1e-8, res
print('installed module', fl.__file__, res)
") || { echo "FAIL install: the installed Python module does not import and solve"; exit 1; }

echo "== installed command from /, data found without FL_DATA_DIR"
unset FL_DATA_DIR FL_SOURCE_ROOT
args=(reproduce --all --out "$stage/out")
[ "$full" = --all ] || args+=(--quick)
t0=$(date +%s)
last=$(cd / && "$bin" "${args[@]}" 2> "$stage/stderr" | tee "$stage/stdout" | tail -n 1)
t1=$(date +%s)
grep -E '^(FAIL|NOTE) ' "$stage/stdout" || true
echo "$last ($((t1 - t0)) s: frictionlab ${args[*]} from /)"
if ! printf '%s\n' "$last" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
    tail -n 20 "$stage/stderr"
    echo "FAIL installed command: reproduce from / did not pass"
    exit 1
fi
# A data directory that does not hold the file is an error naming it.
if (cd / && "$bin" reproduce wedged_rod --quick --data /nonexistent --out "$stage/out2" \
        > "$stage/missing.out" 2> "$stage/missing.err"); then
    echo "FAIL data: --data /nonexistent passed"; exit 1
fi
grep -q '/nonexistent/003/wedged_rod.json' "$stage/missing.err" ||
    { cat "$stage/missing.err"; echo "FAIL data: the error does not name the missing file"; exit 1; }
echo "== installed corpus: crosscheck --family corpus from /, no source tree"
corpus_last=$(cd / && "$bin" crosscheck --family corpus \
    --solver-cmd "$bin solve {in} --out {out} --tol 1e-10 > /dev/null" \
    2> "$stage/corpus.err" | tail -n 1)
if ! printf '%s\n' "$corpus_last" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' ||
   ! grep -Eq "corpus $stage.*/share/frictionlab/corpus \(installed\)" "$stage/corpus.err"; then
    tail -n 20 "$stage/corpus.err"
    echo "FAIL installed corpus: '$corpus_last'"
    exit 1
fi
echo "$corpus_last (crosscheck --family corpus from /, installed corpus)"
echo "PASS install: consumer built with pkg-config, installed command reproduces every task from /"
