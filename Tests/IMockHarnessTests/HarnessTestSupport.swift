import Foundation
import IMockHarness
import IMockTestSupport
import Testing

/// The package's root directory (this file is Tests/IMockHarnessTests/…).
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// Every fixture file of the catalogue, relative to the package root.
let catalogueFiles: [String] = {
    (try? FixtureLoader.files([packageRoot + "/Fixtures"]))?.map { String($0.dropFirst(packageRoot.count + 1)) } ?? []
}()

/// Loads `file` (relative to the package root).
func loadFixture(_ file: String) throws -> Fixture {
    let data = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + file))
    var fixture = try FixtureParser.parse(Array(data), file: file)
    fixture.file = file
    return fixture
}

/// Parses a fixture from text.
func parseFixture(_ text: String, file: String = "inline.json") throws(FixtureError) -> Fixture {
    try FixtureParser.parse(Array(text.utf8), file: file)
}

/// Checks that the fixture `text` (case `name`) is refused as `bad.json`, naming `path` and a
/// reason containing `reason`.
func expectRefused(_ name: String, _ text: String, path: String, reason: String) {
    do {
        _ = try FixtureParser.parseCases(Array(text.utf8), file: "bad.json")
        Issue.record("\(name): accepted")
    } catch {
        #expect(error.file == "bad.json", "\(name)")
        #expect(error.path == path, "\(name): \(error)")
        #expect(error.description.contains(reason), "\(name): \(error)")
    }
}

/// Whether the PyPI OpenIM client `adapters/openim-python` wraps is installed; says so when not.
func openIMPythonClientAvailable() async -> Bool {
    let check = "import importlib.metadata as m; assert m.version(\"openim-sdk-core\") == \"0.1.11\""
    guard await available("python3", python: check) else {
        print("skipped: openim-sdk-core 0.1.11 not installed (pip install openim-sdk-core==0.1.11; .ci/run does)")
        return false
    }
    return true
}

/// Runs `fixture` in process.
func run(_ fixture: Fixture, settings: RunSettings = RunSettings()) async -> ScenarioResult {
    await ScenarioRun(fixture: fixture, settings: settings, index: 0).run()
}

/// A temporary directory of its own.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "imock-harness-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A small valid fixture; `steps` replaces its steps.
func miniFixture(steps: String = #"[{"do": "login", "device": "phone"}, {"expect": "sequence", "device": "phone", "callbacks": ["loginCompletion(error: null)"]}]"#, extra: String = "") -> String {
    """
    {"name": "mini", "rules": [{"id": "E3", "source": "000 § 登录完成前使用本地数据库"}]\(extra),
     "apps": [{"name": "chat", "users": ["alice", "bob"]}],
     "devices": [{"name": "phone", "user": "alice"}, {"name": "pad", "user": "alice", "platform": "android"}],
     "steps": \(steps)}
    """
}

/// Runs `imock run` on a temporary directory holding `files` (name → fixture text), with a JUnit
/// report; checks that it stops with 65 running nothing, and returns the report.
func expectRunRefuses(_ files: [String: String]) async throws -> String {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    var configuration = RunConfiguration()
    configuration.paths = [directory]
    configuration.junitPath = directory + "/junit.xml"
    let printed = HarnessTests.Lines()
    let status = await ConformanceRun.run(configuration) { printed.append($0) }
    #expect(status == FixtureError.exitCode)
    #expect(printed.all.isEmpty, "something ran: \(printed.all)")
    return try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
}

/// Whether `program` runs and, with `python` code, whether python3 can run it (an import check) —
/// asked on a Dispatch thread, never blocking the cooperative pool.
func available(_ program: String, python: String? = nil) async -> Bool {
    let script = python.map { "command -v \(program) >/dev/null && python3 -c '\($0)'" } ?? "command -v \(program) >/dev/null"
    return (try? await ExternalCommand.run("/bin/sh", ["-c", script]))?.status == 0
}

/// The prefix that runs a child at the lowest CPU priority: the harness's Python adapters and
/// Chromium must not starve the real-time tests of other modules running beside them.
let lowPriority = ["nice", "-n", "19"]

/// Every suite of the harness, one after the other: they start servers, browsers and Python
/// adapters, and running them in a row leaves the CPU to the real-time tests of other modules.
@Suite("Harness", .serialized)
enum HarnessTests {}

/// Runs the fixtures listed in `adapters/<subsetOf>/subset.txt` (default: `directory`) with every
/// device driven by the external adapter `adapters/<directory>/<script>`, started with
/// `interpreter` at the lowest CPU priority, and checks that all of them pass.
func expectAdapterPassesItsSubset(
    _ directory: String, script: String, atLeast minimum: Int,
    interpreter: [String] = ["python3"], subsetOf subsetDirectory: String? = nil
) async throws {
    let subsetFile = packageRoot + "/adapters/\(subsetDirectory ?? directory)/subset.txt"
    let subset = try String(contentsOfFile: subsetFile, encoding: .utf8)
        .split(separator: "\n").map { packageRoot + "/" + $0 }
    #expect(subset.count >= minimum)
    var configuration = RunConfiguration()
    configuration.paths = subset
    configuration.jobs = 1
    configuration.settings.adapters[directory] = lowPriority + interpreter + [packageRoot + "/adapters/\(directory)/\(script)"]
    configuration.settings.adapterOverride = directory
    let lines = HarnessTests.Lines()
    let status = await ConformanceRun.run(configuration) { lines.append($0) }
    #expect(status == 0, "\(lines.all.joined(separator: "\n"))")
    #expect(lines.all.filter { $0.contains("PASS") }.count == subset.count, "\(lines.all.joined(separator: "\n"))")
}
