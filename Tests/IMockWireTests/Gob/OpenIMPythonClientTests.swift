import IMockCommon
import IMockCore
import IMockTestSupport
import IMockWire
import Testing

/// The gateway codec against a client we did not write: the PyPI `openim-sdk-core` 0.1.11
/// (AGPL-3.0; installed by .ci/run, run here, never copied), which speaks the Go SDK's format:
/// gzip(gob type definition + value), one fresh encoder per frame.
@Suite("OpenIM gob and gzip with the PyPI client")
struct OpenIMPythonClientTests {
    /// Reads a JSON argument from stdin and prints JSON; see each command.
    static let script = #"""
        import gzip, json, sys
        command, data = sys.argv[1], json.loads(sys.stdin.read())
        if command == "encode-requests":
            # Requests as the client sends them (ws_client.py: gzip(encode_general_ws_req_stream)).
            from openim_sdk.gob_codec import encode_general_ws_req_stream
            frames = []
            for req in data:
                req["Data"] = bytes.fromhex(req["Data"])
                frames.append(gzip.compress(encode_general_ws_req_stream(req, include_type_def=True)).hex())
            print(json.dumps(frames))
        elif command == "read-frames":
            # The client's own binary-frame handler, with dispatch and errors captured.
            from openim_sdk.ws_client import OpenIMWSSDK
            sdk = object.__new__(OpenIMWSSDK)
            sdk._resp_type_ids, sdk._resp_field_orders = set(), {}
            responses, errors = [], []
            sdk._dispatch_resp, sdk._emit_error = responses.append, errors.append
            for frame in data:
                OpenIMWSSDK._handle_binary_frame(sdk, bytes.fromhex(frame))
            print(json.dumps({"responses": [dict(r, Data=r["Data"].hex()) for r in responses],
                              "errors": [repr(e) for e in errors]}))
        elif command == "gunzip":
            print(json.dumps(gzip.decompress(bytes.fromhex(data)).hex()))
        elif command == "gzip":
            print(json.dumps(gzip.compress(bytes.fromhex(data), mtime=0).hex()))
        """#

    /// The tests drive the client's internals (`_handle_binary_frame`), so the version is pinned.
    static let hasClient = Task {
        let check = "import importlib.metadata as m, openim_sdk.ws_client; assert m.version('openim-sdk-core') == '0.1.11'"
        return (try? await ExternalCommand.run("python3", ["-c", check]))?.status == 0
    }
    static let hasPython = Task { (try? await ExternalCommand.run("python3", ["-c", "import gzip"]))?.status == 0 }

    /// Runs a command of ``script`` with `input` as its JSON argument and parses what it prints.
    static func python(_ command: String, _ input: JSONValue) async throws -> JSONValue {
        let result = try await ExternalCommand.run("python3", ["-c", script, command], stdin: input.encodedString)
        try #require(result.status == 0, "python3 failed: \(result.stderr)")
        return try JSONValue.parse(result.stdout)
    }

    static func hexBytes(_ value: JSONValue?) -> [UInt8]? { value?.stringValue.map { hex($0) } }

    @Test("our decoder reads every field of the GeneralWsReq frames the client sends",
          .enabled("openim-sdk-core 0.1.11 is not installed (.ci/run installs it)") { await hasClient.value })
    func clientRequests() async throws {
        let requests = [
            OpenIMGeneralWsReq(reqIdentifier: 1001, token: "eyJhbGciOiJIUzI1NiJ9.e30.sig", sendID: "alice",
                               operationID: "1700000000000123", msgIncr: "alice_1700000000000_1", data: [0x0A, 0x05] + Array("alice".utf8)),
            OpenIMGeneralWsReq(reqIdentifier: 1003, sendID: "bob", operationID: "1", msgIncr: "m", data: Array(0...255)),
            OpenIMGeneralWsReq(reqIdentifier: 2003, token: "tök ✓", sendID: "ユーザー"),
            OpenIMGeneralWsReq(reqIdentifier: -5),
            OpenIMGeneralWsReq(reqIdentifier: 1 << 40, msgIncr: String(repeating: "x", count: 300)),
            OpenIMGeneralWsReq(),
        ]
        let input = JSONValue.array(requests.map { request in
            .object([("ReqIdentifier", .int(Int64(request.reqIdentifier))), ("Token", .string(request.token)),
                     ("SendID", .string(request.sendID)), ("OperationID", .string(request.operationID)),
                     ("MsgIncr", .string(request.msgIncr)), ("Data", .string(request.data.hexString))])
        })
        let frames = try #require(try await Self.python("encode-requests", input).arrayValue)
        try #require(frames.count == requests.count)
        for (frame, request) in zip(frames, requests) {
            let gob = try Gzip.decompress(try #require(Self.hexBytes(frame)), limit: 1 << 20)
            #expect(try GobDecoder.decodeMessage(OpenIMGeneralWsReq.self, from: gob) == request)
        }
    }

    @Test("the client's own frame handler reads our gzip(Resp) frames field for field",
          .enabled("openim-sdk-core 0.1.11 is not installed (.ci/run installs it)") { await hasClient.value })
    func clientReadsResponses() async throws {
        let responses = [
            OpenIMResp(reqIdentifier: 1001, msgIncr: "alice_1700000000000_1", operationID: "1700000000000123", data: [0x0A, 0x00]),
            OpenIMResp(reqIdentifier: 1003, msgIncr: "alice_1700000000000_2", operationID: "1700000000000124",
                       errCode: 1302, errMsg: "token expired", data: []),
            OpenIMResp(reqIdentifier: 2001, data: Array(0...255)),
            OpenIMResp(reqIdentifier: 2002),
            OpenIMResp(reqIdentifier: 1002, msgIncr: "bob_1_ü", operationID: "1700000000000125", errCode: -1, errMsg: "ошибка"),
        ]
        let frames = responses.map { JSONValue.string(Gzip.compress(GobEncoder.encodeMessage($0)).hexString) }
        let output = try await Self.python("read-frames", .array(frames))
        #expect(output["errors"]?.arrayValue == [])
        let decoded = try #require(output["responses"]?.arrayValue)
        try #require(decoded.count == responses.count)
        for (read, sent) in zip(decoded, responses) {
            #expect(read["ReqIdentifier"]?.intValue == Int64(sent.reqIdentifier))
            #expect(read["MsgIncr"]?.stringValue == sent.msgIncr)
            #expect(read["OperationID"]?.stringValue == sent.operationID)
            #expect(read["ErrCode"]?.intValue == Int64(sent.errCode))
            #expect(read["ErrMsg"]?.stringValue == sent.errMsg)
            #expect(Self.hexBytes(read["Data"]) == sent.data)
        }
    }

    @Test("gzip both ways with Python's gzip module",
          .enabled("python3 is not installed") { await hasPython.value })
    func gzipWithPython() async throws {
        var random = SplitMix64(seed: 1952)
        let data = (0..<50_000).map { index in index % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : UInt8(index % 7) }
        let unzipped = try await Self.python("gunzip", .string(Gzip.compress(data).hexString))
        #expect(Self.hexBytes(unzipped) == data)
        let zipped = try #require(Self.hexBytes(try await Self.python("gzip", .string(data.hexString))))
        #expect(try Gzip.decompress(zipped, limit: data.count) == data)
    }
}
