/// Why a fixture file was refused: the file, the JSON path of the offending value, the reason.
/// `imock run` prints it as `file: path: reason` and exits with 65.
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The JSON path (`steps[3].callbacks[1].args.code`); empty for the document itself.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(file: String = "", path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    /// `file: path: reason`.
    public var description: String {
        [file, path, reason].filter { !$0.isEmpty }.joined(separator: ": ")
    }

    /// The exit status of a run with an invalid fixture (sysexits.h `EX_DATAERR`).
    public static let exitCode: Int32 = 65
}
