@testable import IMockWire
import Testing

/// `GobDecoder.decodeMessage` reads a frame of its type's own definition without a decoder's
/// type table; these tests hold it to a decoder's reading (values and errors) over frames and
/// their truncations and byte changes.
@Suite("Gob own frames")
struct GobOwnFrameTests {
    @Test("a frame's value and every damaged frame's error are a decoder's")
    func sameAsADecoder() {
        let frames = GobFieldCodeTests.requests.map { GobEncoder.encodeMessage($0) }
        for input in Self.damaged(frames) {
            let fast = Result { () throws(GobError) in try GobDecoder.decodeMessage(OpenIMGeneralWsReq.self, from: input) }
            #expect(Self.agree(fast, Self.decoderReading(OpenIMGeneralWsReq.self, input)), "\(input.hexString)")
        }
        for input in Self.damaged(GobFieldCodeTests.responses.map { GobEncoder.encodeMessage($0) }) {
            let fast = Result { () throws(GobError) in try GobDecoder.decodeMessage(OpenIMResp.self, from: input) }
            #expect(Self.agree(fast, Self.decoderReading(OpenIMResp.self, input)), "\(input.hexString)")
        }
    }

    @Test("limits that refuse the definition are a decoder's too")
    func limits() {
        let frame = GobEncoder.encodeMessage(GobFieldCodeTests.responses[2])
        var limits = GobLimits.standard
        for change in 0..<4 {
            limits = .standard
            switch change {
            case 0: limits.maximumTypeDefinitions = 0
            case 1: limits.maximumNameLength = 3
            case 2: limits.maximumFieldCount = 2
            default: limits.maximumMessageLength = 20
            }
            let fast = Result { () throws(GobError) in try GobDecoder.decodeMessage(OpenIMResp.self, from: frame, limits: limits) }
            #expect(Self.agree(fast, Self.decoderReading(OpenIMResp.self, frame, limits: limits)), "\(change)")
        }
    }

    /// Stands for the count of bytes after a value, which a decoder does not tell.
    static let unknownExtra = -1

    /// Whether two readings agree: the same value or error (any count of extra bytes when the
    /// decoder's reading says there are some).
    static func agree<T: Equatable>(_ fast: Result<T, GobError>, _ decoder: Result<T, GobError>) -> Bool {
        if case .failure(.extraData(unknownExtra)) = decoder, case .failure(.extraData) = fast { return true }
        return fast == decoder
    }

    /// What a decoder reads from `input` as one frame (the general path).
    static func decoderReading<T: GobCodable & Equatable>(
        _ type: T.Type, _ input: [UInt8], limits: GobLimits = .standard
    ) -> Result<T, GobError> {
        Result { () throws(GobError) in
            var decoder = GobDecoder(input, limits: limits)
            let value = try decoder.decode(type)
            guard decoder.isAtEnd else { throw GobError.extraData(Self.unknownExtra) }
            return value
        }
    }

    static func damaged(_ frames: [[UInt8]]) -> [[UInt8]] {
        var all: [[UInt8]] = []
        for frame in frames {
            all.append(frame)
            all.append(frame + [0])
            for length in 0..<frame.count { all.append(Array(frame.prefix(length))) }
            for index in frame.indices {
                for replacement: UInt8 in [0, 1, 0x3F, 0x40, 0x7F, 0x80, 0xFE, 0xFF, frame[index] ^ 1] {
                    var copy = frame
                    copy[index] = replacement
                    all.append(copy)
                }
            }
        }
        return all
    }
}
