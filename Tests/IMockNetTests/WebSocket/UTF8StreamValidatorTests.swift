import Testing

@testable import IMockNet

@Suite("UTF-8 stream validation")
struct UTF8StreamValidatorTests {
    static let valid: [[UInt8]] = [
        [], Array("plain ASCII".utf8), Array("κόσμε".utf8), Array("€ 😀 𐍈 中文".utf8),
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]

    static let invalid: [[UInt8]] = [
        [0x80],  // lone continuation
        [0xC0, 0xAF], [0xC1, 0xBF],  // overlong 2-byte
        [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF],  // overlong 3-byte
        [0xF0, 0x80, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4-byte
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates D800, DFFF
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],  // above U+10FFFF
        [0xC2, 0x41],  // missing continuation
        [0xE2, 0x82],  // truncated at the end
        [0xF0, 0x9F, 0x98],  // truncated 4-byte
    ]

    @Test("Valid sequences", arguments: valid)
    func acceptsValid(bytes: [UInt8]) {
        #expect(UTF8StreamValidator.isValid(bytes))
    }

    @Test("Invalid sequences", arguments: invalid)
    func rejectsInvalid(bytes: [UInt8]) {
        #expect(!UTF8StreamValidator.isValid(bytes))
    }

    @Test("Every split point of a multi-byte text validates the same as the whole")
    func splitAnywhere() {
        let bytes = Array("a€😀b".utf8)
        for split in 0...bytes.count {
            var validator = UTF8StreamValidator()
            let prefixAccepted = validator.validate(bytes[..<split])
            #expect(prefixAccepted)
            #expect(validator.isAtBoundary == (String(validating: bytes[..<split], as: UTF8.self) != nil))
            let restAccepted = validator.validate(bytes[split...])
            #expect(restAccepted)
            #expect(validator.isAtBoundary)
        }
    }

    @Test("An impossible byte fails at once, before the sequence is complete")
    func failsFast() {
        var validator = UTF8StreamValidator()
        let start = validator.validate([0x41, 0xED])
        #expect(start)
        let surrogate = validator.validate([0xA0])
        #expect(!surrogate)
    }
}
