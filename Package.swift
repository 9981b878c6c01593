// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // Release builds leave out the run-time exclusivity checks (docs/BENCHMARKS.md: ~9 % of
    // the server's instructions a message); debug builds, which the tests run, keep them.
    // They also optimize across modules: small functions of one module (an engine query,
    // a codec's helper) are inlined and specialized where another module calls them.
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)),
]

let package = Package(
    name: "imock",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "imock", targets: ["imock"]),
        .library(name: "IMockNet", targets: ["IMockNet"]),
        .library(name: "IMockCore", targets: ["IMockCore"]),
        .library(name: "IMockWire", targets: ["IMockWire"]),
        .library(name: "IMockClient", targets: ["IMockClient"]),
        .library(name: "IMockServer", targets: ["IMockServer"]),
        .library(name: "IMockHarness", targets: ["IMockHarness"]),
        .library(name: "IMockBench", targets: ["IMockBench"]),
    ],
    targets: [
        // C system modules: what Glibc does not export, and the Debian C libraries.
        .systemLibrary(name: "CIMockShims", path: "Sources/CIMockShims"),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        // OpenSSL's low-level SHA-256 alone (deprecated in 3.0, let through for PBKDF2: see its shim.h).
        .systemLibrary(
            name: "COpenSSLSHA256", path: "Sources/COpenSSLSHA256", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // Small pure building blocks shared by the transport and the domain (the timer queue).
        .target(name: "IMockCommon", swiftSettings: strictSettings),
        // Transport: sockets, epoll loop, timers, TLS, HTTP/1.1, WebSocket. Knows nothing of IM.
        .target(
            name: "IMockNet", dependencies: ["IMockCommon", "CIMockShims", "COpenSSL"],
            swiftSettings: strictSettings),
        // The pure domain: apps, users, tokens, clock. No I/O.
        .target(
            name: "IMockCore", dependencies: ["IMockCommon", "COpenSSL", "COpenSSLSHA256"],
            swiftSettings: strictSettings),
        // The wire layer: codecs (protobuf, gob, gzip, SockJS) and the dialects over the engine.
        .target(
            name: "IMockWire", dependencies: ["IMockCommon", "IMockCore", "CZlib"],
            swiftSettings: strictSettings),
        // The reference client: the SDK connection state machine and vendor callback profiles.
        .target(
            name: "IMockClient", dependencies: ["IMockCommon", "IMockCore", "IMockWire", "IMockNet", "CSQLite"],
            swiftSettings: strictSettings),
        // Persistence (`--data DIR`): apps, users, tokens, offline queues, checkpoints and the
        // clock in SQLite (WAL), written in group commits from the loop thread.
        .target(
            name: "IMockStore", dependencies: ["IMockCommon", "IMockCore", "CSQLite"],
            swiftSettings: strictSettings),
        // The server: routes, control API, sessions.
        .target(
            name: "IMockServer",
            dependencies: ["IMockCommon", "IMockCore", "IMockWire", "IMockNet", "IMockStore", "CIMockShims"],
            swiftSettings: strictSettings),
        // The conformance harness: fixtures, scenario runner, matchers, reports, adapters (`imock run`).
        .target(
            name: "IMockHarness",
            dependencies: ["IMockCommon", "IMockCore", "IMockWire", "IMockNet", "IMockClient", "IMockServer"],
            swiftSettings: strictSettings),
        // `imock bench`: the IM scenarios against imock and baselines (docs/BENCHMARKS.md).
        .target(
            name: "IMockBench",
            dependencies: [
                "IMockCommon", "IMockCore", "IMockWire", "IMockNet", "IMockStore", "IMockServer", "IMockClient", "IMockHarness",
                "CIMockShims",
            ],
            swiftSettings: strictSettings),
        // The command line: a table of commands (serve, run, bench, version …) over the modules below.
        .executableTarget(
            name: "imock",
            dependencies: [
                "IMockCommon", "IMockCore", "IMockServer", "IMockStore", "IMockHarness", "IMockBench", "IMockNet", "IMockClient",
                "CIMockShims",
            ],
            swiftSettings: strictSettings),

        // Loopback servers, raw sockets, third-party processes and the session engine harness
        // shared by the test targets.
        .target(
            name: "IMockTestSupport", dependencies: ["IMockCommon", "IMockCore", "IMockNet", "CIMockShims"],
            path: "Tests/IMockTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockNetTests", dependencies: ["IMockCommon", "IMockNet", "IMockTestSupport", "CIMockShims", "COpenSSL"],
            exclude: ["Interop/websockets_client.py"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockClientTests",
            dependencies: ["IMockCommon", "IMockClient", "IMockCore", "IMockWire", "IMockServer", "IMockNet", "IMockTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockHarnessTests",
            dependencies: [
                "IMockHarness", "IMockCommon", "IMockClient", "IMockCore", "IMockWire", "IMockServer", "IMockNet",
                "IMockTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockBenchTests",
            dependencies: ["imock", "IMockBench", "IMockCommon", "IMockCore", "IMockNet", "IMockWire", "IMockTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockCoreTests", dependencies: ["IMockCommon", "IMockCore", "IMockTestSupport", "COpenSSL"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockStoreTests", dependencies: ["IMockStore", "IMockCommon", "IMockCore", "CSQLite"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockCLITests",
            dependencies: [
                "imock", "IMockBench", "IMockClient", "IMockCommon", "IMockCore", "IMockHarness", "IMockNet", "IMockServer",
                "IMockTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockWireTests", dependencies: ["IMockCommon", "IMockCore", "IMockWire", "IMockTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IMockServerTests",
            dependencies: [
                "IMockCommon", "IMockServer", "IMockCore", "IMockWire", "IMockNet", "IMockStore", "IMockTestSupport",
                "CIMockShims",
            ],
            exclude: [
                "Interop/session_client.py", "Interop/msync_client.py", "Golden/journal-golden.json",
                "OpenIM/openim_gateway.py", "OpenIM/openim_sdk_client.py", "OpenIM/openim_test_server.py",
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
