# setup.sh — sourced by run.sh and test.sh: installs what frictionlab needs
# on Debian 12.  Not meant to be run on its own.
#
# FL_PACKAGES lists every Debian package the build, the tests, the proofs and
# the peer cross-validation need.  As root with apt-get, missing ones are
# installed; otherwise the exact apt-get line is printed and we exit 2.

FL_PACKAGES="meson ninja-build pkg-config gcc libgsl-dev libsuitesparse-dev
libjansson-dev libcriterion-dev gcovr valgrind gnuplot-nox libssl-dev chromium man-db groff-base
libfclib-dev libhdf5-dev libsiconos-numerics-dev libarpack2-dev
python3-h5py python3-numpy python3-dev cython3 python3-scipy python3-pytest
frama-c-base why3 z3 clang libclang-rt-14-dev"

fl_missing_packages() {
    local missing="" p
    for p in $FL_PACKAGES; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing="$missing $p"
        fi
    done
    echo "$missing"
}

fl_install_packages() {
    local missing
    missing=$(fl_missing_packages)
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        # shellcheck disable=SC2086
        apt-get install -y -qq $missing >&2
    else
        echo "setup: missing Debian packages; run as root:" >&2
        echo "  apt-get install -y$missing" >&2
        exit 2
    fi
}

# fl_configure BUILDDIR COVERAGE(true|false)
fl_configure() {
    local dir=$1 cov=$2
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" -Db_coverage="$cov" >/dev/null
    else
        meson setup "$dir" -Db_coverage="$cov" >/dev/null
    fi
}
