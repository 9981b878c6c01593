/// Bad command-line usage: printed with the command's usage line, exit code 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    /// The conventional exit status for bad usage (sysexits.h `EX_USAGE`).
    public static let exitCode: Int32 = 64
}
