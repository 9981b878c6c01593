#!/usr/bin/env bash
# Drives the dashboard (/_imock/ui) in headless Chromium against a real `imock serve`:
# logs devices in over /ws, clicks every control and checks what it did, and takes screenshots
# at laptop and phone width. See docs/DASHBOARD.md.
#
# Usage: scripts/ui-check.sh [--screenshots DIR]      (default DIR: docs/images)
# Environment: IMOCK_BINARY  the imock executable to use (default: `swift build --product imock`)
#              CHROMIUM      the browser (default: chromium on the PATH)
# Needs: Debian's chromium, python3 with websockets (pip). Exits non-zero on any failed step;
# the whole run is bounded (UI_CHECK_TIMEOUT seconds, default 240).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
screenshots="$root/docs/images"
while [ $# -gt 0 ]; do
    case "$1" in
        --screenshots) screenshots="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "ui-check: unknown argument $1" >&2; exit 64 ;;
    esac
done

fail() { echo "ui-check: FAILED: $*" >&2; exit 1; }

chromium="${CHROMIUM:-$(command -v chromium || true)}"
[ -n "$chromium" ] || fail "chromium is not installed (apt-get install -y chromium)"
python3 -c 'import websockets.sync.client' 2>/dev/null || fail "python3 has no websockets (pip install websockets)"

binary="${IMOCK_BINARY:-}"
if [ -z "$binary" ]; then
    echo "ui-check: building imock"
    (cd "$root" && swift build --product imock >/dev/null) || fail "swift build failed"
    binary="$(cd "$root" && swift build --show-bin-path)/imock"
fi
[ -x "$binary" ] || fail "no imock executable at $binary"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

secret="ui-check-$RANDOM$RANDOM"
"$binary" serve --port 0 --clock virtual --admin-secret "$secret" --app 'acme#chat:open' --app 'beta#test' \
    2>"$work/server.log" &
server_pid=$!

port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/.* listening address=[^ ]*:\([0-9]*\) .*/\1/p' "$work/server.log" | head -n 1)"
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || fail "imock serve exited: $(cat "$work/server.log")"
    sleep 0.1
done
[ -n "$port" ] || fail "imock serve printed no listening line in 10 s"
echo "ui-check: imock serve on 127.0.0.1:$port (virtual clock)"

status=0
timeout --kill-after=10 "${UI_CHECK_TIMEOUT:-240}" python3 "$root/scripts/ui_check.py" \
    --port "$port" --secret "$secret" --chromium "$chromium" --screenshots "$screenshots" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    fail "timed out after ${UI_CHECK_TIMEOUT:-240} s"
elif [ "$status" -ne 0 ]; then
    echo "ui-check: server log:" >&2
    tail -n 40 "$work/server.log" >&2
    exit "$status"
fi
