import IMockCommon

/// Generated client frames of the imock JSON dialect, most of them almost right: for holding a
/// fast reader of frames equal to the general parser.
enum ClientFrameCorpus {
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

    /// A value of every JSON type, and strings that are awkward to read or to accept (ids of 64
    /// and 65 bytes, a text of 5,002 UTF-16 units, which only the engine refuses).
    static let values: [String] = [
        "null", "true", "false", "0", "-1", "1.5", "1e999", "-0", "01", "[]", #"["x"]"#, "{}", #"{"a":1,"a":2}"#,
        #"{"op":"send"}"#, #""""#, #""x""#, #""send""#, #""ack""#, #""ping""#, #""login""#, #""dance""#,
        #""\#(String(repeating: "i", count: 65))""#, #""\#(String(repeating: "é", count: 32))""#,
        #""\#(String(repeating: "é", count: 33))""#, #""\#(String(repeating: "😀", count: 2501))""#, #""a\"b""#,
        #""\\""#, #""\/""#, #""\u00e9""#, #""\ud83d\ude00""#, #""\ud800""#, #""\udc00x""#, #""\x""#, #""\u12""#,
        "\"tab\there\"", "\"nul\u{0}\"", #""\n""#, #""s\u0065nd""#, "tru", "nul", "\"open",
    ]

    /// Keys that are or look like a frame's.
    static let keys = [
        "op", "id", "to", "text", "messageId", "token", "unbindDeviceToken", "extra", "Op", "i\\u0064", "\\u006fp", "tex",
        "é", "",
    ]

    /// JSON whitespace, and two characters that are not.
    static let separators = ["", " ", "\t", "\n", "\r", " \n\t ", "\u{0C}", "\u{A0}"]

    /// The whole corpus (some 23,000 texts), the same on every run.
    static func all() -> [String] {
        var random = SplitMix64(seed: 0xF4A3_E5)
        var corpus: [String] = []
        for frame in valid {
            corpus += memberMutations(of: frame, &random)
            corpus += damaged(text(frame), &random)
        }
        corpus += specialBytesAtEveryOffset()
        for _ in 0..<10_000 {
            var frame = valid[pick(valid.count, &random)]
            for _ in 0...(random.next() % 3) { mutate(&frame, &random) }
            corpus.append(text(frame, spacing: { random.next() % 4 == 0 ? spacing(&random) : "" }))
        }
        return corpus + ["", " ", "[]", "[1]", #""op""#, "1", "null", "{", "}", "{,}", #"{"op":"send",}"#, #"{"op""send"}"#]
    }

    /// `frame` with each member given every value, removed, renamed and repeated; with every
    /// extra member; reordered and spaced out.
    static func memberMutations(of frame: Members, _ random: inout SplitMix64) -> [String] {
        var texts = [text(frame)]
        for position in frame.indices {
            for value in values {
                var changed = frame
                changed[position].value = value
                texts.append(text(changed))
            }
            var removed = frame
            removed.remove(at: position)
            texts.append(text(removed))
            for key in keys {
                var renamed = frame
                renamed[position].key = key
                texts.append(text(renamed))
            }
            for insertion in 0...frame.count {
                var repeated = frame
                repeated.insert(frame[position], at: insertion)
                texts.append(text(repeated))
                repeated[insertion].value = values[pick(values.count, &random)]
                texts.append(text(repeated))
            }
        }
        for key in keys {
            for value in values {
                var extended = frame
                extended.insert((key, value), at: pick(frame.count + 1, &random))
                texts.append(text(extended))
            }
        }
        for _ in 0..<40 {
            texts.append(text(frame.shuffled(using: &random)))
            texts.append(text(frame, spacing: { spacing(&random) }))
        }
        return texts
    }

    /// `whole` cut short at every byte, with garbage before or after it, and with random bytes
    /// changed (repaired to valid UTF-8, as a WebSocket text message is).
    static func damaged(_ whole: String, _ random: inout SplitMix64) -> [String] {
        let bytes = Array(whole.utf8)
        var texts = (0..<bytes.count).map { String(decoding: bytes[..<$0], as: UTF8.self) }
        for garbage in ["x", " ", "}", ",", "{}", "\n", "\u{0}", "\"", " 1", "]"] {
            texts += [whole + garbage, garbage + whole]
        }
        let syntax = Array(#"{}[]":,\ tfn0"#.utf8)
        for _ in 0..<100 {
            var flipped = bytes
            for _ in 0...(random.next() % 3) {
                flipped[pick(flipped.count, &random)] =
                    random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : syntax[pick(syntax.count, &random)]
            }
            texts.append(String(decoding: flipped, as: UTF8.self))
        }
        return texts
    }

    /// A quote, backslash or control character (or a harmless byte) at every offset of an id
    /// and of a text, across the eight-byte steps a fast reader may take through a string.
    static func specialBytesAtEveryOffset() -> [String] {
        var texts: [String] = []
        for special in [#"\""#, #"\\"#, #"\n"#, #"\u0041"#, "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "🙂", "\""] {
            for offset in 0..<20 {
                let content = String(repeating: "x", count: offset) + special + String(repeating: "y", count: 20 - offset)
                for frame in valid.prefix(2) {
                    var changed = frame
                    changed[3].value = "\"" + content + "\""
                    texts.append(text(changed))
                    changed[1].value = "\"" + content + "\""
                    texts.append(text(changed))
                }
            }
        }
        return texts
    }

    /// One random change: reorder, a member's value, a member less, one repeated, one more.
    static func mutate(_ frame: inout Members, _ random: inout SplitMix64) {
        let position = pick(frame.count, &random)
        switch random.next() % 6 {
        case 0: frame.shuffle(using: &random)
        case 1 where !frame.isEmpty: frame[position].value = values[pick(values.count, &random)]
        case 2 where !frame.isEmpty: frame[position].value = plainString(&random)
        case 3 where !frame.isEmpty: frame.remove(at: position)
        case 4 where !frame.isEmpty: frame.insert(frame[position], at: pick(frame.count + 1, &random))
        default: frame.insert((keys[pick(keys.count, &random)], plainString(&random)), at: pick(frame.count + 1, &random))
        }
    }

    /// A quoted string with no escape (empty, short, around 64 bytes, multi-byte).
    static func plainString(_ random: inout SplitMix64) -> String {
        let alphabet = ["a", "Z", "0", " ", "/", "#", "é", "字", "🙂", "e\u{301}"]
        let count = pick(70, &random)
        return "\"" + (0..<count).map { _ in alphabet[pick(alphabet.count, &random)] }.joined() + "\""
    }

    /// Mostly JSON whitespace, now and then a character that is not.
    static func spacing(_ random: inout SplitMix64) -> String {
        random.next() % 20 == 0 ? separators[pick(separators.count, &random)] : separators[pick(6, &random)]
    }

    /// A number in `0..<count` (0 for an empty range).
    static func pick(_ count: Int, _ random: inout SplitMix64) -> Int {
        Int(random.next() % UInt64(max(count, 1)))
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
