import IMockCommon
import IMockCore

/// What a soak did and found (docs/SOAK.md § Reading the report), with its verdict.
public struct SoakReport: Sendable {
    /// One sample of the server's memory and descriptors.
    public struct Sample: Sendable, Equatable {
        /// Real time since the load started, ms.
        public var atMs: Int64
        public var residentBytes: Int
        public var openFiles: Int?

        /// A sample.
        public init(atMs: Int64, residentBytes: Int, openFiles: Int?) {
            self.atMs = atMs
            self.residentBytes = residentBytes
            self.openFiles = openFiles
        }
    }

    // The run.
    public var seed: UInt64 = 0
    public var target = ""
    /// Seconds the load ran, and the drain after it.
    public var loadSeconds = 0.0
    public var drainSeconds = 0.0
    public var devices = 0
    public var users = 0
    /// App name and login policy, per app.
    public var apps: [(name: String, policy: String)] = []

    // Sessions.
    public var loginsSent = 0
    /// Logins sent per dialect (`imock-json`, `msync`, `openim`).
    public var loginsByDialect: [String: Int] = [:]
    public var loginsAccepted = 0
    public var loginsRefused: [Int: Int] = [:]
    /// `kicked` frames by code.
    public var kicked: [Int: Int] = [:]
    /// Kicks whose close (4000 + code, 4999 from 1000 on) followed.
    public var kicksClosed = 0
    /// Kicks whose connection a network fault cut before the close.
    public var kicksCutByFault = 0
    /// Kicks with no close after them on a connection no fault touched.
    public var kicksWithoutClose = 0
    public var tokenExpiries = 0
    public var logouts = 0
    /// Connections the device itself dropped (a planned abort, or a reply that never came).
    public var deviceAborts = 0
    /// Connections that ended without a close frame, each touched by a fault.
    public var faultDrops = 0

    // Tokens, the clock, the control API.
    public var tokensFetched = 0
    public var tokenWarnings = 0
    public var renewalsSent = 0
    public var renewalsAccepted = 0
    public var renewalsRefused = 0
    public var expireNowCalls = 0
    public var clockAdvances = 0
    public var clockAdvancedMs: Int64 = 0
    public var controlKicks = 0
    public var restDisconnects = 0
    public var faults: [String: Int] = [:]
    public var httpCalls = 0

    // Non-readers and silent peers (docs/SOAK.md § Stalls).
    /// Devices that stopped reading for a while and kept pinging.
    public var stallsReading = 0
    /// Devices that went silent both ways, past the server's close timer.
    public var stallsSilent = 0
    /// The large messages sent to stalled devices' users.
    public var floodMessages = 0
    /// Stalled connections the server closed for what they held (1008, or cut at its close timer).
    public var stallCloses = 0
    /// Server crashes (SIGKILL) and restarts on the same `--data`.
    public var crashes = 0

    // Messages.
    public var messages = SoakMessageFigures()

    // Memory and descriptors.
    /// Why memory could not be sampled, when it could not.
    public var memoryUnavailable: String?
    public var samples: [Sample] = []
    /// The memory at the end of the warm-up and the highest in the load's last fifth.
    public var baselineBytes = 0
    public var finalBytes = 0
    public var memoryBoundBytes = 0
    public var filesAtStart: Int?
    public var filesAtEnd: Int?
    public var filesMaximum: Int?

    /// Things that must not happen (a frame after a close, an unexpected error, an HTTP call
    /// refused as malformed …), the first few; `anomalyCount` counts them all.
    public var anomalies: [String] = []
    public var anomalyCount = 0

    public init() {}

    /// Memory growth over the load, after the warm-up.
    public var memoryGrowthBytes: Int { finalBytes - baselineBytes }

    /// Why the run fails; empty when it passes.
    public var failures: [String] {
        var reasons: [String] = []
        if messages.lost > 0 { reasons.append("\(messages.lost) messages lost") }
        if messages.duplicated > 0 { reasons.append("\(messages.duplicated) messages duplicated") }
        if messages.outOfOrder > 0 { reasons.append("\(messages.outOfOrder) messages out of order") }
        if messages.misdelivered > 0 { reasons.append("\(messages.misdelivered) messages misdelivered") }
        if kicksWithoutClose > 0 { reasons.append("\(kicksWithoutClose) kicks without their close") }
        if anomalyCount > 0 { reasons.append("\(anomalyCount) protocol or API anomalies") }
        if messages.accepted == 0 || loginsAccepted == 0 { reasons.append("the load did not run (no login or message accepted)") }
        if memoryUnavailable == nil, memoryGrowthBytes > memoryBoundBytes {
            reasons.append("memory grew \(Self.mib(memoryGrowthBytes)) MiB, more than the bound of \(Self.mib(memoryBoundBytes)) MiB")
        }
        if let start = filesAtStart, let end = filesAtEnd, end > start + Self.fileTolerance {
            reasons.append("\(end - start) more open files after the run than before it")
        }
        return reasons
    }

    /// Descriptors a run may end with beyond those it started with (a listing's own, a
    /// socket the kernel has not released yet).
    public static let fileTolerance = 2

    /// True when nothing failed.
    public var passed: Bool { failures.isEmpty }

    // MARK: Text

    /// The report for a terminal.
    public var text: String {
        var lines: [String] = []
        func row(_ label: String, _ text: String) {
            lines.append("  " + label + String(repeating: " ", count: max(10 - label.count, 1)) + text)
        }
        lines.append(
            "imock soak: \(Self.seconds(loadSeconds)) of load (+\(Self.seconds(drainSeconds)) drain) against \(target), seed \(seed), "
                + "\(devices) devices of \(users) users in \(apps.count) apps")
        row("apps", apps.map(\.name).joined(separator: ", "))
        row("logins", "\(loginsSent) sent, \(loginsAccepted) accepted, \(sum(loginsRefused)) refused\(Self.codes(loginsRefused))")
        row("ends", "kicked \(sum(kicked))\(Self.codes(kicked)), token expired \(tokenExpiries), logout \(logouts), "
            + "dropped by the device \(deviceAborts), cut by faults \(faultDrops)")
        row("kicks", "\(sum(kicked)) kicked frames: \(kicksClosed) followed by their close, \(kicksCutByFault) cut by a fault, "
            + "\(kicksWithoutClose) without their close")
        row("tokens", "\(tokensFetched) fetched, \(tokenWarnings) warnings, renewals \(renewalsSent) sent (\(renewalsAccepted) ok, "
            + "\(renewalsRefused) refused), expire-now \(expireNowCalls)")
        row("control", "clock advanced \(clockAdvances) times (+\(Self.duration(clockAdvancedMs))), \(controlKicks) kicks, "
            + "\(restDisconnects) REST disconnects, \(httpCalls) HTTP calls, \(crashes) server crashes (SIGKILL, restart on --data)")
        row("stalls", "\(stallsReading) stopped reading (pinging), \(stallsSilent) silent both ways; \(floodMessages) large messages sent to them, "
            + "\(stallCloses) closed by the server for what they held")
        row("faults", faults.isEmpty ? "none" : faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        let m = messages
        row("messages", "\(m.sent) sent: \(m.accepted) accepted, \(sum(m.refused)) refused\(Self.codes(m.refused)), "
            + "\(m.unconfirmed) unconfirmed and not received")
        row("", "delivered live \(m.deliveredLive) (+\(m.fanOut) to other devices), offline \(m.deliveredOffline) "
            + "(+\(m.redelivered) again, not acked), without send.ok \(m.deliveredUnconfirmed); acked \(m.acked)")
        row("", "lost \(m.lost), excused \(m.excused) (a fault or a dropping device may have taken them), "
            + "duplicated \(m.duplicated), out of order \(m.outOfOrder), misdelivered \(m.misdelivered)")
        if let reason = memoryUnavailable {
            row("memory", "not available: \(reason)")
        } else {
            row("memory", "RSS \(Self.mib(baselineBytes)) MiB after warm-up, \(Self.mib(finalBytes)) MiB at the end "
                + "(\(memoryGrowthBytes >= 0 ? "+" : "")\(Self.mib(memoryGrowthBytes)) MiB, bound \(Self.mib(memoryBoundBytes)) MiB)")
            row("", "samples (s: MiB): " + sampleDigest)
        }
        let files = [filesAtStart, filesAtEnd, filesMaximum].map { $0.map(String.init) ?? "?" }
        row("files", memoryUnavailable == nil ? "\(files[0]) open before the load, \(files[1]) after the drain, at most \(files[2])" : "not available")
        for example in m.examples { row("example", example) }
        for anomaly in anomalies { row("anomaly", anomaly) }
        if anomalyCount > anomalies.count { row("", "… \(anomalyCount - anomalies.count) more anomalies") }
        row("result", passed ? "PASS" : "FAIL: " + failures.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    /// About twelve samples spread over the run.
    var sampleDigest: String {
        guard !samples.isEmpty else { return "none" }
        let step = max(1, samples.count / 12)
        var picked = stride(from: 0, to: samples.count, by: step).map { samples[$0] }
        if picked.last != samples.last, let last = samples.last { picked.append(last) }
        return picked.map { "\(Self.seconds(Double($0.atMs) / 1000, digits: 0)) \(Self.mib($0.residentBytes))" }
            .joined(separator: ", ")
    }

    // MARK: JSON

    /// The report as JSON, for scripts (`imock soak --json`).
    public var json: JSONValue {
        let m = messages
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { (key: $0.0, value: $0.1) }) }
        func int(_ value: Int) -> JSONValue { .int(Int64(value)) }
        func codes(_ counts: [Int: Int]) -> JSONValue { object(counts.sorted { $0.key < $1.key }.map { (String($0.key), int($0.value)) }) }
        func optional(_ value: Int?) -> JSONValue { value.map(int) ?? .null }
        return object([
            ("passed", .bool(passed)),
            ("failures", .array(failures.map { .string($0) })),
            ("seed", .string(String(seed))),
            ("target", .string(target)),
            ("loadSeconds", .double(loadSeconds)),
            ("drainSeconds", .double(drainSeconds)),
            ("devices", int(devices)),
            ("users", int(users)),
            ("apps", .array(apps.map { object([("name", .string($0.name)), ("loginPolicy", (try? JSONValue.parse(Array($0.policy.utf8))) ?? .null)]) })),
            ("logins", object([
                ("sent", int(loginsSent)), ("accepted", int(loginsAccepted)), ("refused", codes(loginsRefused)),
                ("byDialect", object(loginsByDialect.sorted { $0.key < $1.key }.map { ($0.key, int($0.value)) })),
            ])),
            ("kicks", object([
                ("byCode", codes(kicked)), ("closed", int(kicksClosed)), ("cutByFault", int(kicksCutByFault)),
                ("withoutClose", int(kicksWithoutClose)),
            ])),
            ("ends", object([
                ("tokenExpired", int(tokenExpiries)), ("logout", int(logouts)), ("droppedByDevice", int(deviceAborts)),
                ("cutByFault", int(faultDrops)),
            ])),
            ("tokens", object([
                ("fetched", int(tokensFetched)), ("warnings", int(tokenWarnings)), ("renewalsSent", int(renewalsSent)),
                ("renewalsAccepted", int(renewalsAccepted)), ("renewalsRefused", int(renewalsRefused)), ("expireNow", int(expireNowCalls)),
            ])),
            ("control", object([
                ("clockAdvances", int(clockAdvances)), ("clockAdvancedMs", .int(clockAdvancedMs)), ("kicks", int(controlKicks)),
                ("restDisconnects", int(restDisconnects)), ("httpCalls", int(httpCalls)), ("crashes", int(crashes)),
                ("faults", object(faults.sorted { $0.key < $1.key }.map { ($0.key, int($0.value)) })),
            ])),
            ("stalls", object([
                ("reading", int(stallsReading)), ("silent", int(stallsSilent)), ("floodMessages", int(floodMessages)),
                ("closedByServer", int(stallCloses)),
            ])),
            ("messages", object([
                ("sent", int(m.sent)), ("accepted", int(m.accepted)), ("refused", codes(m.refused)), ("unconfirmed", int(m.unconfirmed)),
                ("deliveredLive", int(m.deliveredLive)), ("deliveredOffline", int(m.deliveredOffline)),
                ("deliveredUnconfirmed", int(m.deliveredUnconfirmed)), ("fanOut", int(m.fanOut)), ("redelivered", int(m.redelivered)),
                ("acked", int(m.acked)), ("lost", int(m.lost)), ("excused", int(m.excused)), ("duplicated", int(m.duplicated)),
                ("outOfOrder", int(m.outOfOrder)), ("misdelivered", int(m.misdelivered)),
                ("examples", .array(m.examples.map { .string($0) })),
            ])),
            ("memory", memoryUnavailable.map { object([("available", .bool(false)), ("reason", .string($0))]) } ?? object([
                ("available", .bool(true)), ("baselineBytes", int(baselineBytes)), ("finalBytes", int(finalBytes)),
                ("growthBytes", int(memoryGrowthBytes)), ("boundBytes", int(memoryBoundBytes)),
                ("samples", .array(samples.map { object([("atMs", .int($0.atMs)), ("residentBytes", int($0.residentBytes)), ("openFiles", optional($0.openFiles))]) })),
            ])),
            ("files", object([("atStart", optional(filesAtStart)), ("atEnd", optional(filesAtEnd)), ("maximum", optional(filesMaximum))])),
            ("anomalies", object([("count", int(anomalyCount)), ("first", .array(anomalies.map { .string($0) }))])),
        ])
    }

    // MARK: Formatting

    private func sum(_ counts: [Int: Int]) -> Int { counts.values.reduce(0, +) }

    private static func codes(_ counts: [Int: Int]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }

    static func mib(_ bytes: Int) -> String { DecimalText.fixed(Double(bytes) / 1_048_576, digits: 1) }

    static func seconds(_ value: Double, digits: Int = 1) -> String { DecimalText.fixed(value, digits: digits) + " s" }

    static func duration(_ ms: Int64) -> String {
        let minutes = ms / 60_000
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min \(ms % 60_000 / 1000) s"
    }
}
