# imock in a container (docs/CONTAINERS.md): built with the official Swift image, run on
# Debian slim as a non-root user. scripts/check-containers.sh lints this file and checks the
# runtime packages against what the binary links (ldd).
#
#   docker build -t imock:local .
#   docker run --rm -p 127.0.0.1:5280:5280 -e IMOCK_ADMIN_SECRET=s3cret imock:local

# ---- build: a release binary with the Swift runtime linked in statically ------------------
FROM swift:6.3-bookworm AS build
# The C libraries the package's system-library targets compile against (as in .ci/run).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libssl-dev libsqlite3-dev zlib1g-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Package.swift names every target's folder, the test targets' too, so Tests/ is copied.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# --static-swift-stdlib links libswiftCore, Concurrency, Dispatch … into the binary, so the
# runtime image needs no Swift toolchain files, only the Debian libraries below.
RUN swift build -c release --static-swift-stdlib --product imock \
    && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/imock" /out/imock

# ---- runtime: Debian slim + the shared libraries the binary links -----------------------
FROM debian:bookworm-slim AS runtime
# libssl3 gives libssl.so.3 and libcrypto.so.3 (TLS, HMAC, PBKDF2), libsqlite3-0 gives
# libsqlite3.so.0 (the reference client's message database in `imock run`, the --data store);
# libc6, libstdc++6, libgcc-s1 and zlib1g are already in the base image. Versions follow the bookworm security updates.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libssl3 libsqlite3-0 \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 imock \
    && useradd --system --uid 10001 --gid imock --home-dir /var/lib/imock --no-create-home \
        --shell /usr/sbin/nologin imock \
    && install -d -o imock -g imock -m 0750 /var/lib/imock
COPY --from=build /out/imock /usr/local/bin/imock
# The fixture catalogue, for `imock run … Fixtures` (the compose file's conformance service).
COPY Fixtures /usr/share/imock/Fixtures
# The state directory: `serve --data /var/lib/imock` keeps apps, users, tokens, offline queues,
# checkpoints and the clock here (docs/PERSISTENCE.md). Mount a named volume to keep them
# across containers; `docker run --rm` drops the anonymous one with the container.
VOLUME ["/var/lib/imock"]
WORKDIR /usr/share/imock
USER 10001:10001
EXPOSE 5280
# No curl in the image: bash's /dev/tcp sends the request. Health needs no admin secret.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/5280 && printf 'GET /_imock/health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["imock"]
# Inside a container every client (a published port, another container) is non-loopback, so
# the control API is opened with --control-remote: the admin secret (IMOCK_ADMIN_SECRET, or
# the one logged at start-up) is then its only guard. Publish the port on 127.0.0.1.
CMD ["serve", "--host", "0.0.0.0", "--port", "5280", "--control-remote", "--data", "/var/lib/imock"]
