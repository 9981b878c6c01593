import IMockWire
import Testing

/// The bytes written as hex pairs; spaces, `|` and newlines are ignored (the reference's notation).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit }.utf8)
    precondition(digits.count % 2 == 0, "odd hex digits in \(text)")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
}

extension Array where Element == UInt8 {
    /// Lower-case hex pairs without separators.
    var hexString: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}

/// The error `body` throws, which must be a ``ProtobufError`` (an issue is recorded otherwise).
func protobufError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ProtobufError? {
    do {
        try body()
        Issue.record("expected a ProtobufError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as ProtobufError {
        return error
    } catch {
        Issue.record("expected a ProtobufError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
