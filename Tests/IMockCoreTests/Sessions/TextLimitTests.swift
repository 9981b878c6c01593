import Testing
@testable import IMockCore

/// Length limits bound memory: UTF-8 bytes for imock's own identifiers, UTF-16 units where the
/// documents say "characters". One user-perceived character can be megabytes of combining
/// marks, so Swift's `count` must never be the measure.
@Suite("User fields count UTF-16 units; JSON keys are not repeated")
struct TextLimitTests {
    /// "a" followed by `marks` combining acute accents: one Character, 1 + 2·marks bytes.
    static func zalgo(_ marks: Int) -> String { "a" + String(repeating: "\u{0301}", count: marks) }

    @Test("passwords and nicknames are measured in UTF-16 units")
    func userFields() throws {
        #expect(throws: DirectoryError.passwordTooLong) { try UserFields.validatePassword(Self.zalgo(64)) }
        #expect(throws: DirectoryError.nicknameTooLong) { try UserFields.validateNickname(Self.zalgo(100)) }
        #expect(throws: Never.self) { try UserFields.validatePassword(String(repeating: "密", count: 64)) }
    }

    @Test("a JSON object may not repeat a key; the error names where")
    func repeatedKeys() throws {
        #expect(throws: JSONParseError(reason: .duplicateKey, offset: 8, path: "a")) { try JSONValue.parse(#"{"a":1, "a":2}"#) }
        do {
            _ = try JSONValue.parse(#"{"apps":[{"k":1},{"users":[],"users":[]}]}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.path == "apps[1].users")
        }
        let many = "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k7":0}"#
        #expect(throws: JSONParseError.self) { try JSONValue.parse(many) }
    }
}
