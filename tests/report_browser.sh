#!/bin/sh
# report_browser.sh — open a reproduction report in headless Chromium and
# check that every image loads and every link resolves.
#
#   report_browser.sh FRICTIONLAB CHECK_HTML WORKDIR
#
# Runs `FRICTIONLAB reproduce example_3_15 theorem1 --quick --out WORKDIR`
# (FL_SOURCE_ROOT must point at the source tree), copies CHECK_HTML
# (tests/report_check.html) next to the report, loads it with
# `chromium --headless --dump-dom` and reads its verdict.  It also checks a
# copy of the report with one broken image and one broken link, which must be
# reported: the check itself can fail.  Exit 0 on success, 1 otherwise.
set -u
fl=$1
check=$2
work=$3
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "report_browser: chromium is not installed (setup.sh installs the Debian package 'chromium')" >&2
    exit 1
fi
rm -rf "$work"
mkdir -p "$work" || exit 1
if ! "$fl" reproduce example_3_15 theorem1 --quick --out "$work" >"$work/stdout.txt" 2>"$work/stderr.txt"; then
    echo "report_browser: reproduce failed" >&2
    cat "$work/stdout.txt" "$work/stderr.txt" >&2
    exit 1
fi
cp "$check" "$work/check.html" || exit 1
abs=$(cd "$work" && pwd)

# verdict PAGE_QUERY: print the checker's #result text
verdict() {
    # root has no sandbox; the profile goes to the work directory
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$abs/chromium-profile" --allow-file-access-from-files \
        --virtual-time-budget=20000 --dump-dom "file://$abs/check.html$1" 2>"$abs/chromium.log" |
        sed -n 's/.*<pre id="result">\([^<]*\)<.*/\1/p'
}

status=0
got=$(verdict "")
nfig=$(grep -c '"caption"' "$work/results.json")
echo "report.html: $got (figures in results.json: $nfig)"
case "$got" in
    "OK images=$nfig links="*) ;;
    *) echo "report_browser: expected every one of $nfig images to load and every link to resolve" >&2
       status=1 ;;
esac
case "$got" in
    *"images=0 "*) echo "report_browser: no image in the report" >&2; status=1 ;;
esac

# the same report with a broken image and a broken link must fail the check
sed 's|</body>|<img alt="broken" src="no-such.png"><a href="no/such/file.csv">x</a></body>|' \
    "$work/report.html" >"$work/broken.html"
bad=$(verdict "?report=broken.html")
echo "broken.html: $bad"
case "$bad" in
    BAD*"image"*"broken"*"no/such/file.csv"*) ;;
    *) echo "report_browser: the broken copy was not caught" >&2; status=1 ;;
esac
[ $status -eq 0 ] || { echo "--- chromium log:" >&2; tail -20 "$abs/chromium.log" >&2; }
exit $status
