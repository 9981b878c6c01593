import Testing

@testable import IMockWire

/// The one-pass reader of common frames (``ClientFrameScanner``) against the general parser it
/// stands in front of, over a generated corpus: valid frames of every op, each member mutated to
/// every JSON type, removed, repeated, escaped, reordered, joined by unknown members, spaced out,
/// cut short, followed by garbage and flipped at random bytes. Whatever the scanner answers must
/// be the general parser's frame byte for byte, and `parse` must give what the general parser
/// gives (the same frame, or the same error) for every input.
@Suite("imock JSON: the one-pass frame reader agrees with the general parser")
struct ClientFrameScannerTests {
    @Test("the frames of the message benchmark are read in one pass")
    func commonFramesTakeTheFastPath() {
        let frames: [(String, ClientFrame)] = [
            (#"{"op":"send","id":"s1","to":"bob","text":"hi"}"#, .send(id: "s1", to: "bob", text: "hi")),
            (#"{"op":"ack","id":"a1","messageId":"42"}"#, .ack(id: "a1", messageId: "42")),
            (#"{"op":"ping"}"#, .ping(id: nil)),
            (#"{"op":"ping","id":"p"}"#, .ping(id: "p")),
            (#" { "text" : "é 🙂" , "to":"bob","id":"x","op":"send" } "#, .send(id: "x", to: "bob", text: "é 🙂")),
            (#"{"op":"logout","id":"o","unbindDeviceToken":true}"#, .logout(id: "o", unbindDeviceToken: true)),
            (#"{"op":"renewToken","id":"r","token":"t"}"#, .renewToken(id: "r", token: "t")),
            (#"{"op":"devices","id":"d"}"#, .devices(id: "d")),
        ]
        for (text, frame) in frames {
            #expect(ClientFrameScanner.frame(text) == frame, "\(text)")
        }
    }

    @Test("the scanner's answers are the general parser's, and parse agrees with it on every input")
    func agreesWithTheGeneralParser() {
        let corpus = ClientFrameCorpus.all()
        var answered = 0
        for text in corpus {
            let general = Result { () throws(FrameError) in try ClientFrameParser.parseGenerally(text) }
            let combined = Result { () throws(FrameError) in try ClientFrameParser.parse(text) }
            #expect(Self.exactly(combined) == Self.exactly(general), "\(text.debugDescription)")
            if let fast = ClientFrameScanner.frame(text) {
                answered += 1
                #expect(Self.exactly(.success(fast)) == Self.exactly(general), "\(text.debugDescription)")
            }
        }
        #expect(corpus.count > 20_000, "corpus of \(corpus.count)")
        #expect(answered > 2_000, "scanner answered \(answered) of \(corpus.count)")
    }

    /// The result as bytes: `String`'s `==` would call canonically equivalent strings equal.
    static func exactly(_ result: Result<ClientFrame, FrameError>) -> [UInt8] {
        Array(String(reflecting: result).utf8)
    }
}
