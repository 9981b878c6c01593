import Foundation
import IMockTestSupport
import Testing

/// Every libFuzzer target under `Tests/Fuzz/` (docs/FUZZING.md), built with
/// `swiftc -sanitize=fuzzer,address` and run for a short budget through `scripts/fuzz.sh`:
/// the targets keep building while the sources move, their seeds and past findings are
/// replayed, and a finding fails the test with the fuzzer's report and the command that
/// reproduces it.
///
/// - `IMOCK_FUZZ_SECONDS`: seconds per target (default 8; 0 skips the test).
/// - `IMOCK_FUZZ_TARGETS`: which targets (default `all`, or a comma-separated list).
/// - `IMOCK_FUZZ_OPTIMIZATION`: default `-Onone` here (the modules build in about a third of
///   the time of `-O`, which matters more than fuzzing speed for a budget of seconds).
///
/// Skipped where this swiftc cannot build libFuzzer targets (`scripts/fuzz.sh --check`).
@Suite("Fuzz targets")
struct FuzzTargetsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let script = root + "/scripts/fuzz.sh"
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = Int(environment["IMOCK_FUZZ_SECONDS"] ?? "") ?? 8
    static let targets = environment["IMOCK_FUZZ_TARGETS"] ?? "all"
    static let optimization = environment["IMOCK_FUZZ_OPTIMIZATION"] ?? "-Onone"

    /// `bash scripts/fuzz.sh arguments…` at the lowest priority: the suite's loopback tests keep
    /// their timing, and the fuzzers get the cores once those are done.
    static func fuzz(_ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run(
            "/usr/bin/env", ["IMOCK_FUZZ_OPTIMIZATION=\(optimization)", "nice", "-n", "19", "bash", script] + arguments)
    }

    /// Whether the fuzzers can be built here (and are not switched off).
    static func canFuzz() async -> Bool {
        guard seconds > 0 else { return false }
        return (try? await fuzz(["--check"]).status) == 0
    }

    @Test(
        "every fuzz target builds and runs its budget without a finding",
        .enabled("swiftc cannot build libFuzzer targets here, or IMOCK_FUZZ_SECONDS=0; fuzzing skipped") {
            await canFuzz()
        },
        .timeLimit(.minutes(15)))
    func fuzzTargets() async throws {
        let result = try await Self.fuzz([Self.targets, String(Self.seconds)])
        #expect(result.status == 0, "scripts/fuzz.sh \(Self.targets) \(Self.seconds) failed:\n\(result.stdout)\n\(result.stderr)")
        print(result.stdout, terminator: "")
    }
}
