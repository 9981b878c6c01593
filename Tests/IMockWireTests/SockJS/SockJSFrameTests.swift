import IMockWire
import Testing

@Suite("SockJS frames")
struct SockJSFrameTests {
    @Test("open, heartbeat, messages and close frames as the protocol writes them")
    func serverFrames() {
        #expect(SockJSFrame.open.text == "o")
        #expect(SockJSFrame.heartbeat.text == "h")
        #expect(SockJSFrame.messages(["CAEQAQ==", "a b"]).text == #"a["CAEQAQ==","a b"]"#)
        #expect(SockJSFrame.close(code: 3000, reason: "Go away!").text == #"c[3000,"Go away!"]"#)
        #expect(SockJSFrame.close(code: 2010, reason: "Another connection still open").text
            == #"c[2010,"Another connection still open"]"#)
    }

    @Test("JSON escaping: quotes, backslashes and controls as JSON.stringify, others verbatim")
    func basicEscapes() {
        #expect(SockJSFrame.messages(["\"\\\n\r\t\u{8}\u{C}\u{1}\u{1F}/é中\u{7F}"]).text
            == #"a["\"\\\n\r\t\b\f\u0001\u001f/é中"# + "\u{7F}" + #""]"#)
    }

    @Test("the characters SockJS servers must escape (sockjs-protocol's escapable_by_server) are \\uXXXX")
    func sockJSEscapes() {
        // The protocol's JSONEncoding.test_xhr_server_encodes: every escapable character from
        // U+00FF up (surrogates excluded: a Swift string cannot hold them alone).
        let ranges: [ClosedRange<UInt32>] = [0x200C...0x200F, 0x2028...0x202F, 0x2060...0x206F, 0xFFF0...0xFFFF]
        let scalars = ranges.flatMap { $0 }.map { Unicode.Scalar($0)! }
        let killer = String(String.UnicodeScalarView(scalars))
        let expected = scalars.map { "\\u" + String(repeating: "0", count: 4 - String($0.value, radix: 16).count) + String($0.value, radix: 16) }
        #expect(SockJSFrame.messages([killer]).text == "a[\"" + expected.joined() + "\"]")
        // Neighbours of the ranges stay verbatim.
        #expect(SockJSFrame.messages(["\u{200B}\u{2010}\u{2030}\u{FFEF}"]).text == "a[\"\u{200B}\u{2010}\u{2030}\u{FFEF}\"]")
        // Outside the BMP: a UTF-16 surrogate pair, as JavaScript strings hold it.
        #expect(SockJSFrame.messages(["😀"]).text == #"a["\ud83d\ude00"]"#)
        #expect(SockJSFrame.close(code: 1000, reason: "bye\u{2028}").text == #"c[1000,"bye\u2028"]"#)
    }

    @Test("server frames parse back, escapes included")
    func parseServerFrames() throws {
        let frames: [SockJSFrame] = [
            .open, .heartbeat, .messages(["x"]), .messages(["😀\u{2028}\"", "", "CAEQAQ=="]),
            .close(code: 3000, reason: "Go away!"),
        ]
        for frame in frames { #expect(try SockJSFrame(parsing: frame.text) == frame) }
    }

    @Test("malformed server frames are refused", arguments: ["", "x", "oo", "h ", "a", "a[]", "a[1]", "a{\"a\":1}", "a[\"x\"", "c[3000]", "c[\"3000\",\"x\"]", "c"])
    func malformedServerFrames(_ text: String) {
        #expect(throws: SockJSError.self) { try SockJSFrame(parsing: text) }
    }
}

@Suite("SockJS client frames")
struct SockJSClientFrameTests {
    @Test("a JSON array of strings, a bare string, or nothing")
    func messages() throws {
        #expect(try SockJSClientFrame.messages(in: Array(#"["CAEQAQ=="]"#.utf8)) == ["CAEQAQ=="])
        #expect(try SockJSClientFrame.messages(in: Array(#"["a","b" , "c"]"#.utf8)) == ["a", "b", "c"])
        #expect(try SockJSClientFrame.messages(in: Array(#""solo""#.utf8)) == ["solo"])
        #expect(try SockJSClientFrame.messages(in: Array("[]".utf8)) == [])
        #expect(try SockJSClientFrame.messages(in: []) == [])
        #expect(try SockJSClientFrame.messages(in: Array(#"["\ud83d\ude00\u2028\n"]"#.utf8)) == ["😀\u{2028}\n"])
    }

    @Test("what a client sends reads back")
    func roundTrip() throws {
        let messages = ["CAEQAQ==", "😀\u{2028}\"\\", ""]
        #expect(try SockJSClientFrame.messages(in: Array(SockJSClientFrame.text(messages).utf8)) == messages)
    }

    @Test("broken framing is refused, with the close frame sockjs-node sends",
          arguments: [#"["a"#, "[1]", #"["a",null]"#, #"{"a":"b"}"#, "123", "true", "[[\"a\"]]", #"["\ud800"]"#, " ", "\u{FF}"])
    func brokenFraming(_ text: String) {
        let error = #expect(throws: SockJSError.self) { try SockJSClientFrame.messages(in: Array(text.utf8)) }
        guard case .brokenFraming = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(error?.closeFrame.text == #"c[3000,"Broken framing."]"#)
    }

    @Test("limits on frame length and message count")
    func limits() {
        let long = [UInt8](repeating: 0x20, count: SockJSClientFrame.maximumFrameLength + 1)
        #expect(throws: SockJSError.frameTooLarge(length: long.count, limit: SockJSClientFrame.maximumFrameLength)) {
            try SockJSClientFrame.messages(in: long)
        }
        let many = SockJSClientFrame.text([String](repeating: "", count: SockJSClientFrame.maximumMessageCount + 1))
        #expect(throws: SockJSError.tooManyMessages(count: 1025, limit: 1024)) {
            try SockJSClientFrame.messages(in: Array(many.utf8))
        }
    }
}

@Suite("SockJS fuzz seeds")
struct SockJSFuzzSeedTests {
    @Test("the seed corpus holds valid client frames, server frames and session URLs")
    func seeds() throws {
        let seeds = try CorpusFiles.seeds("sockjs")
        #expect(seeds.count == 11)
        for (name, bytes) in seeds {
            let text = String(decoding: bytes, as: UTF8.self)
            if name.hasPrefix("client_") {
                #expect(throws: Never.self, "\(name)") { try SockJSClientFrame.messages(in: bytes) }
            } else if name.hasPrefix("server_") {
                #expect(throws: Never.self, "\(name)") { try SockJSFrame(parsing: text) }
            } else {
                #expect(SockJSPath(path: text, base: "/ws") != nil, "\(name)")
            }
        }
    }
}

@Suite("SockJS info and URLs")
struct SockJSInfoAndPathTests {
    @Test("the /info body")
    func info() {
        #expect(SockJSInfo.body(entropy: 12345) == #"{"websocket":true,"origins":["*:*"],"cookie_needed":false,"entropy":12345}"#)
        #expect(SockJSInfo.body(entropy: .max).hasSuffix(#""entropy":4294967295}"#))
    }

    @Test("session URLs: any non-empty ids without dots, as the protocol's SessionURLs tests accept")
    func validPaths() {
        #expect(SockJSPath(path: "/ws/123/abcdefgh/websocket", base: "/ws") == .websocket(server: "123", session: "abcdefgh"))
        for (server, session) in [("a", "a"), ("_", "_"), ("1", "1"), ("abcdefgh_i-j%20", "abcdefg_i-j%20")] {
            #expect(SockJSPath(path: "/ws/\(server)/\(session)/websocket", base: "/ws") == .websocket(server: server, session: session))
        }
        #expect(SockJSPath(path: "/ws/info?t=1700000000000", base: "/ws") == .info)
        #expect(SockJSPath(path: "/ws", base: "/ws") == .greeting)
        #expect(SockJSPath(path: "/ws/", base: "/ws/") == .greeting)
        #expect(SockJSPath(path: "/ws/websocket", base: "/ws") == .rawWebSocket)
        #expect(SockJSPath(path: "/000/x/websocket", base: "") == .websocket(server: "000", session: "x"))
        #expect(SockJSPath(path: "/a/b/c/echo/000/x/websocket", base: "/a/b/c/echo") == .websocket(server: "000", session: "x"))
    }

    @Test("bad paths are nil: empty ids, dots, wrong depth, other transports, another base",
          arguments: ["/ws//a/websocket", "/ws/a//websocket", "/ws/a./a/websocket", "/ws/a/a./websocket", "/ws/./././websocket",
                      "/ws///websocket", "/ws/a/websocket", "/ws/a/b/c/websocket", "/ws/a/b/xhr", "/ws/a/b/websocket/",
                      "/wsx/a/b/websocket", "/other/a/b/websocket", "/ws/infox", "ws/a/b/websocket",
                      "/ws/a/" + String(repeating: "s", count: 129) + "/websocket"])
    func invalidPaths(_ path: String) {
        #expect(SockJSPath(path: path, base: "/ws") == nil)
    }
}
