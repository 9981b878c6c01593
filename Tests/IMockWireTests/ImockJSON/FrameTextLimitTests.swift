import Testing
@testable import IMockCore
import IMockWire

/// Length limits bound memory: UTF-8 bytes for imock's own identifiers, UTF-16 units where the
/// documents say "characters". One user-perceived character can be megabytes of combining
/// marks, so Swift's `count` must never be the measure.
@Suite("Frame text limits count bytes or UTF-16 units, not characters")
struct FrameTextLimitTests {
    /// "a" followed by `marks` combining acute accents: one Character, 1 + 2·marks bytes.
    static func zalgo(_ marks: Int) -> String { "a" + String(repeating: "\u{0301}", count: marks) }

    static func login(device: String, id: String = "1") -> String {
        #"{"op":"login","id":"\#(id)","appKey":"a#b","user":"u","token":"t","device":{\#(device)}}"#
    }

    @Test("a one-character text of 10,001 UTF-16 units is refused by the engine (every dialect); 5,000 units pass")
    func textIsMeasuredInUTF16Units() throws {
        #expect(Self.zalgo(10_000).count == 1)
        #expect(MessageLimits.check(text: Self.zalgo(10_000)) == .textTooLong(maximumUTF16Units: 5000))
        #expect(MessageLimits.check(text: String(repeating: "😀", count: 2501)) == .textTooLong(maximumUTF16Units: 5000))
        #expect(MessageLimits.check(text: String(repeating: "字", count: 5000)) == nil)
        #expect(MessageLimits.check(text: Self.zalgo(4999)) == nil)
    }

    @Test("request ids and device fields are measured in UTF-8 bytes")
    func identifiersAreMeasuredInBytes() throws {
        #expect(throws: FrameError.invalidValue(field: "id", reason: "must be 1 to 64 bytes")) {
            try ClientFrameParser.parse(#"{"op":"devices","id":"\#(Self.zalgo(40))"}"#)
        }
        for field in ["name", "uuid", "resource"] {
            let base = field == "uuid" ? #""os":"ios""# : #""os":"ios","uuid":"u""#
            let frame = Self.login(device: base + #","\#(field)":"\#(Self.zalgo(100))""#)
            #expect(throws: FrameError.invalidValue(field: "device.\(field)", reason: "is longer than 128 bytes")) {
                try ClientFrameParser.parse(frame)
            }
        }
        #expect(throws: FrameError.extensionTooLong(1025)) {
            try ClientFrameParser.parse(Self.login(device: #""os":"ios","uuid":"u","extension":"\#(Self.zalgo(1024))""#))
        }
    }

    @Test("an unknown op of megabytes is quoted in the error by at most 64 bytes")
    func errorMessagesStayShort() throws {
        do {
            _ = try ClientFrameParser.parse(#"{"op":"\#(Self.zalgo(100_000))"}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.message.utf8.count < 100, "\(error.message.utf8.count) bytes")
        }
    }
}
