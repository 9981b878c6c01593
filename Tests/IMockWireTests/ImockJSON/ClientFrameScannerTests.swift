import IMockCommon
import IMockCore
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
        let corpus = FrameCorpus.all()
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

/// Generated client frames, most of them almost right.
enum FrameCorpus {
    /// A frame as its members, each a JSON key and value as written.
    typealias Members = [(key: String, value: String)]

    static let valid: [Members] = [
        [("op", #""send""#), ("id", #""s1""#), ("to", #""bob""#), ("text", #""hello""#)],
        [("op", #""send""#), ("id", #""\#(String(repeating: "i", count: 64))""#), ("to", #""b""#), ("text", #""x""#)],
        [("op", #""send""#), ("id", #""é字🙂""#), ("to", #""汉""#), ("text", #""é 🙂 a\u0301""#)],
        [("op", #""ack""#), ("id", #""a1""#), ("messageId", #""1767225600123""#)],
        [("op", #""ping""#)],
        [("op", #""ping""#), ("id", #""p""#)],
        [("op", #""renewToken""#), ("id", #""r""#), ("token", #""tok""#)],
        [("op", #""logout""#), ("id", #""o""#)],
        [("op", #""logout""#), ("id", #""o""#), ("unbindDeviceToken", "true")],
        [("op", #""logout""#), ("id", #""o""#), ("unbindDeviceToken", "false")],
        [("op", #""devices""#), ("id", #""d""#)],
        [
            ("op", #""login""#), ("id", #""1""#), ("appKey", #""a#b""#), ("user", #""u""#), ("token", #""t""#),
            ("device", #"{"os":"ios","uuid":"u1"}"#),
        ],
    ]

    /// A value of every JSON type, and strings that are awkward to read or to accept.
    static let values: [String] = [
        "null", "true", "false", "0", "-1", "1.5", "1e999", "-0", "01", "[]", #"["x"]"#, "{}", #"{"a":1,"a":2}"#,
        #"{"op":"send"}"#, #""""#, #""x""#, #""send""#, #""ack""#, #""ping""#, #""login""#, #""dance""#,
        #""\#(String(repeating: "i", count: 65))""#, #""\#(String(repeating: "é", count: 32))""#,
        #""\#(String(repeating: "é", count: 33))""#, #""a\"b""#, #""\\""#, #""\/""#, #""\u00e9""#,
        #""\ud83d\ude00""#, #""\ud800""#, #""\udc00x""#, #""\x""#, #""\u12""#, "\"tab\there\"", "\"nul\u{0}\"",
        #""\n""#, #""s\u0065nd""#, "tru", "nul", "\"open",
    ]

    /// Keys that are or look like a frame's.
    static let keys = ["op", "id", "to", "text", "messageId", "token", "unbindDeviceToken", "extra", "Op", "i\\u0064", "\\u006fp", "tex", "é", ""]

    static let separators = ["", " ", "\t", "\n", "\r", " \n\t ", "\u{0C}", "\u{A0}"]

    static func all() -> [String] {
        var random = SplitMix64(seed: 0xF4A3_E5)
        var corpus: [String] = []
        for frame in valid {
            corpus.append(text(frame))
            for position in frame.indices {
                for value in values {
                    var changed = frame
                    changed[position].value = value
                    corpus.append(text(changed))
                }
                var removed = frame
                removed.remove(at: position)
                corpus.append(text(removed))
                for key in keys {
                    var renamed = frame
                    renamed[position].key = key
                    corpus.append(text(renamed))
                }
                for insertion in 0...frame.count {
                    var repeated = frame
                    repeated.insert(frame[position], at: insertion)
                    corpus.append(text(repeated))
                    repeated[insertion].value = values[Int(random.next() % UInt64(values.count))]
                    corpus.append(text(repeated))
                }
            }
            for key in keys {
                for value in values {
                    var extended = frame
                    extended.insert((key, value), at: Int(random.next() % UInt64(frame.count + 1)))
                    corpus.append(text(extended))
                }
            }
            for _ in 0..<40 {
                corpus.append(text(frame.shuffled(using: &random)))
                corpus.append(text(frame, spacing: { spacing(&random) }))
            }
            let whole = text(frame)
            let bytes = Array(whole.utf8)
            for end in 0..<bytes.count { corpus.append(String(decoding: bytes[..<end], as: UTF8.self)) }
            for garbage in ["x", " ", "}", ",", "{}", "\n", "\u{0}", "\"", " 1", "]"] {
                corpus.append(whole + garbage)
                corpus.append(garbage + whole)
            }
            for _ in 0..<100 {
                var flipped = bytes
                for _ in 0...(random.next() % 3) {
                    let position = Int(random.next() % UInt64(flipped.count))
                    flipped[position] = random.next() % 2 == 0
                        ? UInt8(truncatingIfNeeded: random.next()) : Array("{}[]\":,\\ tfn0".utf8)[Int(random.next() % 13)]
                }
                corpus.append(String(decoding: flipped, as: UTF8.self))
            }
        }
        // A quote, backslash or control character (or a harmless byte) at every offset of a
        // string, across the eight-byte steps the scanner reads strings in.
        for special in [#"\""#, #"\\"#, #"\n"#, #"\u0041"#, "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "🙂", "\""] {
            for offset in 0..<20 {
                let content = String(repeating: "x", count: offset) + special + String(repeating: "y", count: 20 - offset)
                for frame in valid.prefix(2) {
                    var changed = frame
                    changed[3].value = "\"" + content + "\""
                    corpus.append(text(changed))
                    changed[1].value = "\"" + content + "\""
                    corpus.append(text(changed))
                }
            }
        }
        for _ in 0..<10_000 {
            var frame = valid[Int(random.next() % UInt64(valid.count))]
            for _ in 0...(random.next() % 3) { mutate(&frame, &random) }
            corpus.append(text(frame, spacing: { random.next() % 4 == 0 ? spacing(&random) : "" }))
        }
        corpus += ["", " ", "[]", "[1]", #""op""#, "1", "null", "{", "}", "{,}", #"{"op":"send",}"#, #"{"op""send"}"#]
        return corpus
    }

    /// Strings to substitute (printable, so the scanner reads them): empty, short, around 64
    /// bytes, multi-byte.
    static func plainString(_ random: inout SplitMix64) -> String {
        let alphabet = ["a", "Z", "0", " ", "/", "#", "é", "字", "🙂", "e\u{301}"]
        let count = Int(random.next() % 70)
        return "\"" + (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined() + "\""
    }

    static func spacing(_ random: inout SplitMix64) -> String {
        random.next() % 20 == 0
            ? separators[Int(random.next() % UInt64(separators.count))] : separators[Int(random.next() % 6)]
    }

    static func mutate(_ frame: inout Members, _ random: inout SplitMix64) {
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
        switch random.next() % 6 {
        case 0: frame.shuffle(using: &random)
        case 1 where !frame.isEmpty: frame[pick(frame.count)].value = values[pick(values.count)]
        case 2 where !frame.isEmpty: frame[pick(frame.count)].value = plainString(&random)
        case 3 where !frame.isEmpty: frame.remove(at: pick(frame.count))
        case 4 where !frame.isEmpty: frame.insert(frame[pick(frame.count)], at: pick(frame.count + 1))
        default: frame.insert((keys[pick(keys.count)], plainString(&random)), at: pick(frame.count + 1))
        }
    }

    /// The frame written with `spacing()` around every token.
    static func text(_ members: Members, spacing: () -> String = { "" }) -> String {
        var text = spacing() + "{"
        for (index, member) in members.enumerated() {
            if index > 0 { text += spacing() + "," }
            text += spacing() + "\"" + member.key + "\"" + spacing() + ":" + spacing() + member.value
        }
        return text + spacing() + "}" + spacing()
    }
}
