#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: the call's name and its `errno`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. `bind`.
    public var call: String
    /// The `errno` value it set.
    public var code: Int32

    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String {
        "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}
