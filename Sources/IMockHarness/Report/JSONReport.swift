import IMockClient
import IMockCore

/// The machine-readable report (`--json`); the format is documented in `docs/FIXTURES.md`.
public enum JSONReport {
    /// The format version.
    public static let version: Int64 = 1

    /// The whole run as JSON.
    public static func render(_ results: [ScenarioResult], settings: RunSettings) -> String {
        let count = { (outcome: ScenarioOutcome) in Int64(results.filter { $0.outcome == outcome }.count) }
        let target: JSONValue
        switch settings.target {
        case .inProcess: target = "in-process"
        case .external(let url, _): target = .string(url)
        }
        let document: JSONValue = [
            "version": .int(version), "tool": "imock run", "server": target,
            "seedRandom": settings.seedRandom.map { .string(String($0)) } ?? .null,
            "summary": [
                "total": .int(Int64(results.count)), "passed": .int(count(.passed)), "failed": .int(count(.failed)),
                "expectedFailures": .int(count(.expectedFailure)), "unexpectedPasses": .int(count(.unexpectedPass)),
                "skipped": .int(count(.skipped)), "wallMs": .int(results.reduce(0) { $0 + $1.wallMs }),
            ],
            "scenarios": .array(results.map(scenario)),
        ]
        return document.encodedString + "\n"
    }

    static func scenario(_ result: ScenarioResult) -> JSONValue {
        [
            "file": .string(result.file), "name": .string(result.name),
            "rules": .array(result.rules.map { ["id": .string($0.id), "source": .string($0.source)] }),
            "outcome": .string(result.outcome.rawValue), "note": result.note.map(JSONValue.string) ?? .null,
            "devices": .array(result.devices.map(JSONValue.string)), "startMs": .int(result.startMs),
            "virtualMs": .int(result.virtualMs), "wallMs": .int(result.wallMs),
            "divergence": result.divergence.map { divergence in
                [
                    "step": .int(Int64(divergence.stepIndex)), "path": .string(divergence.stepPath),
                    "summary": .string(divergence.stepSummary), "message": .string(divergence.failure.message),
                    "expected": .array(divergence.failure.expected.map(JSONValue.string)),
                    "observed": .array(divergence.failure.observed.map(JSONValue.string)),
                    "device": divergence.failure.device.map(JSONValue.string) ?? .null, "atMs": .int(divergence.atMs),
                ]
            } ?? .null,
            "timeline": .array(result.timeline.map(event)),
        ]
    }

    static func event(_ event: TimelineEvent) -> JSONValue {
        switch event {
        case .step(let index, let path, let summary, let device, let atMs):
            return [
                "kind": "step", "index": .int(Int64(index)), "path": .string(path), "summary": .string(summary),
                "device": device.map(JSONValue.string) ?? .null, "atMs": .int(atMs),
            ]
        case .callback(let callback):
            return [
                "kind": "callback", "sequence": .int(Int64(callback.sequence)), "device": .string(callback.device),
                "name": .string(callback.name), "args": .object(callback.arguments.map { (key: $0.name, value: $0.value) }),
                "atMs": .int(callback.timeMs), "step": .int(Int64(callback.stepIndex)),
            ]
        case .server(let device, let resource, let summary, let atMs):
            return [
                "kind": "server", "device": device.map(JSONValue.string) ?? .null,
                "resource": resource.map(JSONValue.string) ?? .null, "summary": .string(summary), "atMs": .int(atMs),
            ]
        case .request(let summary, let status, let atMs, let isFault):
            return ["kind": isFault ? "fault" : "request", "summary": .string(summary), "status": .int(Int64(status)), "atMs": .int(atMs)]
        case .clock(let from, let to):
            return ["kind": "clock", "fromMs": .int(from), "toMs": .int(to)]
        case .check(let index, let summary, let passed, let atMs):
            return ["kind": "check", "index": .int(Int64(index)), "summary": .string(summary), "passed": .bool(passed), "atMs": .int(atMs)]
        }
    }
}
