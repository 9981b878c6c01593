import IMockCommon
import IMockCore
import IMockHarness
import IMockNet

/// `imock record export`: a recording becomes a fixture (docs/RECORD.md). Exit 0, 64 bad usage,
/// 65 a recording that cannot be read, 69 a `--server` that does not give one.
enum RecordCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "record", arguments: arguments, help: RecordOptions.spec.help,
            parse: { () throws(UsageError) in try RecordOptions.parse(arguments, environment: environment) }
        ) { options in
            let recording: RecordingReader
            do {
                let bytes = try source(options)
                recording = try RecordingReader(bytes: bytes)
                if let app = options.app, app != recording.app {
                    throw RecordingError(path: "app", reason: "the recording is of \(recording.app), not \(app)")
                }
            } catch let error as RecordingError {
                StandardError.write("imock record: invalid recording: \(error)\n")
                return 65
            } catch let error as SourceError {
                StandardError.write("imock record: \(error.message)\n")
                return error.exitCode
            } catch {
                StandardError.write("imock record: \(error)\n")
                return 1
            }
            let exported: (fixture: JSONValue, notes: [String])
            do {
                exported = try RecordingExport.fixture(recording, options: options.export)
            } catch {
                StandardError.write("imock record: invalid recording: \(error)\n")
                return 65
            }
            if recording.truncated {
                StandardError.write("imock record: note: the recording reached its limit of \(Recording.eventLimit) events; the fixture ends there\n")
            }
            for note in exported.notes { StandardError.write("imock record: note: \(note)\n") }
            print(exported.fixture.prettyString, terminator: "")
            return 0
        }
    }

    struct SourceError: Error {
        var message: String
        var exitCode: Int32
    }

    /// The recording's bytes: from the server, a file, or standard input.
    private static func source(_ options: RecordOptions) throws -> [UInt8] {
        guard let url = options.serverURL, let app = options.app else {
            let path = options.input ?? "/dev/stdin"
            do { return try Files.read(path) } catch { throw SourceError(message: "cannot read \(path): \(error)", exitCode: 66) }
        }
        let endpoint: ServerEndpoint
        do { endpoint = try ServerEndpoint(url: url) } catch { throw SourceError(message: "--server \(url): \(error)", exitCode: 64) }
        let client = try BlockingHTTP(endpoint: endpoint)
        defer { client.close() }
        let query = PercentEncoding.encode(app.description)
        switch client.call("GET", "/_imock/record?app=\(query)", bearer: options.adminSecret) {
        case .success(let answer) where answer.status == 200:
            return answer.body.encoded()
        case .success(let answer):
            throw SourceError(message: "\(url) answered \(answer.status): \(answer.body.encodedString)", exitCode: 69)
        case .failure(let error):
            throw SourceError(message: "cannot reach \(url): \(error)", exitCode: 69)
        }
    }
}
