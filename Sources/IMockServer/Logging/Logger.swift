#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockCore

/// How log lines are written.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-29T15:27:26.123Z info listening address=127.0.0.1:5280`
    case text
    /// `{"ts":"2026-11-29T15:27:26.123Z","level":"info","event":"listening","address":"127.0.0.1:5280"}`
    case json
}

/// Writes one line per event to a file descriptor (standard error by default).
///
/// Field values are written as given: callers pass token prefixes, never full tokens.
public struct Logger: Sendable {
    public enum Level: String, Sendable, CaseIterable { case debug, info, warning, error }

    public var format: LogFormat
    public var minimumLevel: Level
    private let fd: Int32

    public init(format: LogFormat = .text, minimumLevel: Level = .info, fd: Int32 = 2) {
        self.format = format
        self.minimumLevel = minimumLevel
        self.fd = fd
    }

    /// A logger that writes nothing.
    public static let disabled = Logger(fd: -1)

    public func info(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.info, event, fields)
    }

    public func warning(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.warning, event, fields)
    }

    public func error(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.error, event, fields)
    }

    public func debug(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log(.debug, event, fields)
    }

    public func log(_ level: Level, _ event: String, _ fields: KeyValuePairs<String, String>) {
        guard logs(level) else { return }
        log(level, event, fields: Array(fields))
    }

    /// Whether a line at `level` is written: callers on hot paths check it before building
    /// the fields of a line that would be dropped.
    public func logs(_ level: Level) -> Bool {
        fd >= 0 && Logger.rank(level) >= Logger.rank(minimumLevel)
    }

    /// Logs `event` with fields built at run time.
    public func log(_ level: Level, _ event: String, fields: [(String, String)]) {
        guard logs(level) else { return }
        let line = Logger.render(
            format: format, timestamp: Timestamp.iso8601(epochMilliseconds: SystemClock().nowMs),
            level: level, event: event, fields: fields)
        writeAll(fd, Array((line + "\n").utf8))
    }

    /// Writes the start-up report: a banner in text format, one structured line per item in JSON.
    public func report(_ report: StartupReport) {
        guard fd >= 0, Logger.rank(.info) >= Logger.rank(minimumLevel) else { return }
        switch format {
        case .text:
            writeAll(fd, Array((report.bannerLines(version: IMockVersion.current).joined(separator: "\n") + "\n").utf8))
        case .json:
            for entry in report.logEntries { log(.info, entry.event, fields: entry.fields) }
        }
    }

    static func render(
        format: LogFormat, timestamp: String, level: Level, event: String, fields: [(String, String)]
    ) -> String {
        switch format {
        case .text:
            var line = "\(timestamp) \(level.rawValue) \(event)"
            for (key, value) in fields {
                let needsQuotes = value.isEmpty || value.contains(" ") || value.contains("\"") || value.contains("=")
                line += " \(key)=" + (needsQuotes ? JSONStringEscaping.quoted(value) : value)
            }
            return line
        case .json:
            var line = "{\"ts\":\(JSONStringEscaping.quoted(timestamp)),\"level\":\(JSONStringEscaping.quoted(level.rawValue))"
            line += ",\"event\":\(JSONStringEscaping.quoted(event))"
            for (key, value) in fields { line += ",\(JSONStringEscaping.quoted(key)):\(JSONStringEscaping.quoted(value))" }
            return line + "}"
        }
    }

    private static func rank(_ level: Level) -> Int {
        switch level {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }
}
