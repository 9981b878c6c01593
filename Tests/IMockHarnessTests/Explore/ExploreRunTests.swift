import IMockClient
import IMockCommon
import IMockCore
import IMockTestSupport
import Synchronization
import Testing

@testable import IMockHarness

/// `imock explore` against the reference client: a bounded exploration finds nothing on each
/// transport, and a bug planted in the client is found, shrunk, and kept as a failing fixture.
@Suite("Explore runs", .serialized)
struct ExploreRunTests {
    @Test("a bounded exploration of the reference client breaks no property", arguments: ClientTransport.allCases)
    func boundedExploration(transport: ClientTransport) async {
        var configuration = ExploreConfiguration()
        configuration.runs = 60
        configuration.seed = 1000
        configuration.settings.transport = transport
        configuration.profile = transport == .openIM ? .openim : .easemob
        let (findings, programs) = await Explorer.explore(configuration)
        #expect(programs == 60)
        for finding in findings {
            Issue.record("seed \(finding.seed): \(finding.property.id): \(finding.violation.message)\n\(finding.fixture.prettyString)")
        }
    }

    @Test("a program's run repeats from its seed: the same callbacks and server frames in the same order")
    func reproducible() async throws {
        let configuration = ExploreConfiguration()
        let generator = ExploreGenerator(profile: .easemob, steps: 16)
        for seed in UInt64(40)..<44 {
            let program = generator.program(seed: seed)
            func summary() async throws -> [String] {
                let trace = try #require(await Explorer.run(program, seed: seed, settings: configuration.settings, pool: nil))
                // Virtual times since the first frame: the clock starts at the wall clock's time.
                let start = trace.events.lazy.compactMap { event -> Int64? in
                    if case .server(_, _, _, let atMs) = event { return atMs } else { return nil }
                }.first ?? 0
                return trace.events.map { event in
                    switch event {
                    case .operation(let index): return "op \(index)"
                    case .callback(let callback, _): return "\(callback.device) \(callback.summary) \(callback.timeMs - start)"
                    case .server(let device, let op, let code, let atMs): return "\(device) \(op) \(code ?? 0) \(atMs - start)"
                    }
                }
            }
            let first = try await summary()
            #expect(first.contains { !$0.hasPrefix("op ") })
            let second = try await summary()
            #expect(second == first, "seed \(seed): \(zip(first, second).first { $0 != $1 }.map { "\($0) ≠ \($1)" } ?? "lengths differ")")
        }
    }

    @Test("a bounded exploration in the zim profile breaks no property")
    func zimProfile() async {
        var configuration = ExploreConfiguration()
        configuration.runs = 30
        configuration.seed = 2000
        configuration.profile = .zim
        let (findings, _) = await Explorer.explore(configuration)
        for finding in findings { Issue.record("seed \(finding.seed): \(finding.property.id): \(finding.violation.message)") }
    }

    @Test("a client that reconnects after a 217 is found, shrunk to a handful of steps, and its fixture (valid against Fixtures/schema.json) fails under imock run")
    func plantedBug() async throws {
        var configuration = ExploreConfiguration()
        configuration.runs = 40
        configuration.shrinkBudget = 150
        configuration.settings.plantedClientBug = .reconnectAfterKick(code: 217)
        let (findings, _) = await Explorer.explore(configuration)
        let finding = try #require(findings.first)
        #expect(finding.property.rules.contains("C9") || finding.property.rules.contains("C6"), "\(finding.property.id)")
        #expect(finding.program.operations.count <= 6, "\(finding.program.operations)")
        #expect(finding.program.devices.count == 1)
        #expect(finding.result.outcome == .failed, "\(finding.result.note ?? "")\n\(finding.fixture.prettyString)\n\(ConsoleReport.scenario(finding.result))")
        // The fixture as written: it fails with the bug, and passes with the client as it should be.
        let directory = try Files.makeTemporaryDirectory(prefix: "imock-explore-")
        defer { try? Files.removeTree(directory) }
        let path = directory + "/finding.json"
        try Files.writeAtomically(path, Array(finding.fixture.prettyString.utf8))
        var run = RunConfiguration()
        run.paths = [path]
        run.settings.plantedClientBug = .reconnectAfterKick(code: 217)
        #expect(await ConformanceRun.run(run, output: { _ in }) == 1)
        run.settings.plantedClientBug = nil
        #expect(await ConformanceRun.run(run, output: { _ in }) == 0)
        if await available("python3", python: "import jsonschema") {
            let script = """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[1] + "/Fixtures/schema.json"))
                errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
                print("\\n".join(errors) or "ok")
                """
            let output = try await ExternalCommand.run("python3", ["-c", script, packageRoot, path])
            #expect(output.stdout == "ok\n", "the finding does not validate against Fixtures/schema.json: \(output.stdout) \(output.stderr)")
        }
        let text = String(decoding: try Files.read(path), as: UTF8.self)
        #expect(text.contains("\"C9\"") || text.contains("\"C6\""))
        #expect(text.contains("--seed \(finding.seed)"))
    }

    @Test("the run writes each finding's fixture, the JSON and JUnit reports, and exits 1; 0 without findings")
    func reports() async throws {
        let directory = try Files.makeTemporaryDirectory(prefix: "imock-explore-")
        defer { try? Files.removeTree(directory) }
        var configuration = ExploreConfiguration()
        configuration.runs = 3
        var output = ExploreRun.Output()
        output.directory = directory + "/findings"
        output.jsonPath = directory + "/explore.json"
        output.junitPath = directory + "/junit.xml"
        output.htmlPath = directory + "/explore.html"
        #expect(await ExploreRun.run(configuration, output: output, print: { _ in }) == 0)
        let json = try JSONValue.parse(try Files.read(directory + "/explore.json"))
        #expect(json["tool"] == "imock explore")
        #expect(json["explore"]?["findings"] == [])
        let junit = String(decoding: try Files.read(directory + "/junit.xml"), as: UTF8.self)
        for property in configuration.properties { #expect(junit.contains("explore:\(property.id)")) }

        // Every program of seed 1 with the planted bug: findings are written and the run fails.
        configuration.runs = 40
        configuration.shrinkBudget = 60
        configuration.settings.plantedClientBug = .reconnectAfterKick(code: 217)
        let lines = LineBox()
        #expect(await ExploreRun.run(configuration, output: output, print: { lines.append($0) }) == 1)
        let written = Files.entries(of: directory + "/findings") ?? []
        #expect(!written.isEmpty)
        #expect(lines.text.contains("reproduce with imock explore --seed"))
        let html = String(decoding: try Files.read(directory + "/explore.html"), as: UTF8.self)
        #expect(html.contains("<svg") && html.contains("explore-"))
        let report = try JSONValue.parse(try Files.read(directory + "/explore.json"))
        #expect(report["explore"]?["findings"]?.arrayValue?.count == written.count)
    }
}

/// Lines printed by a run, from any thread.
final class LineBox: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
