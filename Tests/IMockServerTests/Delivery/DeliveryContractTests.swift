import IMockCommon
import IMockCore
import IMockNet
import IMockWire
import IMockServer
import IMockTestSupport
import Testing

/// The delivery contract (docs/PROTOCOL.md § Delivery and § Limits), one suite run over every
/// dialect in ``ContractDialect``: the guarantees are the engine's, so no dialect may reopen a
/// hole another closed. Devices are raw sockets that read only when told to.
@Suite("The delivery contract, for every dialect", .serialized)
struct DeliveryContractTests {
    /// 1,000 bytes of text.
    static let kilobyte = String(repeating: "x", count: 1000)

    @Test(
        "a device that does not read is closed with 1008 and loses nothing, also when it keeps pinging",
        arguments: ContractDialect.allCases, [false, true])
    func nonReaderIsClosedAndLosesNothing(_ dialect: ContractDialect, pinging: Bool) async throws {
        let fixture = try fixture(for: dialect, outputLimit: 65_536)
        let (reader, sender) = try await stalledReaderAndSender(fixture, dialect)
        let accepted = try send(count: 300, of: String(repeating: "y", count: 5000), from: sender, pinging: pinging ? reader : nil)
        #expect(accepted.count == 300)
        #expect(try fixture.journalEvents().contains("closed:1008"))

        // What the stalled device's kernel took, read now, and what waits for its next login
        // cover every accepted message.
        let taken = try reader.read { _ in false }.events.compactMap(\.messageID)
        let waiting = try await offlineSync(fixture, user: "reader", dialect)
        #expect(Set(waiting).count == waiting.count, "nothing waits twice")
        #expect(Set(accepted).subtracting(taken).subtracting(waiting).isEmpty, "lost: \(Set(accepted).subtracting(taken).subtracting(waiting).sorted())")
        await fixture.stop()
    }

    @Test(
        "the queue cap counts what is in flight: messages put back by a 1008 never push a queue past 10,000",
        arguments: ContractDialect.allCases)
    func queueCapHoldsThroughRequeue(_ dialect: ContractDialect) async throws {
        let fixture = try fixture(for: dialect, outputLimit: 65_536)
        let (reader, sender) = try await stalledReaderAndSender(fixture, dialect)
        // 2,000 more than the cap: far more than the stalled device's few KiB of kernel buffer
        // can take (and so confirm) meanwhile. The first 2,000 pass the output cap; the device
        // reads what its kernel kept at once (the server gives up on a close it cannot send
        // after 5 s, and a reset from the socket it left would take that), then the rest follow.
        let first = try send(count: 2_000, of: "short", from: sender)
        #expect(try fixture.journalEvents().contains("closed:1008"), "the first 2,000 pass the cap")
        let taken = try reader.read { _ in false }.events.compactMap(\.messageID)
        let accepted = first + (try send(count: 10_000, of: "short", from: sender, firstID: 2_001))
        // What the stalled device's kernel acknowledged was delivered and left the queue (making
        // room); the queue — in flight, then waiting — never held more than 10,000, so sends
        // past that were refused rather than queued.
        #expect(accepted.count < 12_000, "the full queue refused sends")
        let waiting = try await offlineSync(fixture, user: "reader", dialect)
        #expect(waiting.count <= 10_000 && waiting.count >= 9_000, "the cap, no more: \(waiting.count)")
        #expect(try fixture.journalEvents().contains("error:\(SessionError.offlineQueueFull.imockCode)"), "refusals are journalled")
        #expect(Set(accepted).subtracting(taken).subtracting(waiting).isEmpty)
        await fixture.stop()
    }

    @Test("a kick puts back what the device had not confirmed, in order", arguments: ContractDialect.allCases)
    func kickPutsBackWhatWasNotConfirmed(_ dialect: ContractDialect) async throws {
        let fixture = try fixture(for: dialect)
        let (reader, sender) = try await stalledReaderAndSender(fixture, dialect)
        let accepted = try send(count: 200, of: Self.kilobyte, from: sender)
        #expect(accepted.count == 200)
        let kick = try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"reader","code":217}"#)
        #expect(kick.status == 200)
        let taken = try reader.read { _ in false }.events.compactMap(\.messageID)
        let waiting = try await offlineSync(fixture, user: "reader", dialect)
        #expect(waiting == waiting.sorted { Int($0)! < Int($1)! }, "in order")
        #expect(Set(waiting).count == waiting.count, "once")
        #expect(Set(accepted).subtracting(taken).subtracting(waiting).isEmpty, "lost: \(Set(accepted).subtracting(taken).subtracting(waiting).sorted())")
        await fixture.stop()
    }

    @Test("a text over 5,000 characters is refused in the dialect's words; 5,000 pass", arguments: ContractDialect.allCases)
    func textLimit(_ dialect: ContractDialect) async throws {
        let fixture = try fixture(for: dialect)
        _ = try fixture.userToken("bob")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        try sender.send(String(repeating: "字", count: 5001), to: "bob", id: 1)
        try sender.send(String(repeating: "字", count: 5000), to: "bob", id: 2)
        let events = try sender.read { $0.filter(\.isAnswer).count == 2 }.events.filter(\.isAnswer)
        let refusal: String = switch dialect {
        case .imockJSON: "110"
        case .msync, .msyncSockJS: "wrongParameter"
        case .openIMGob, .openIMJSON: "1001"
        }
        #expect(events.first == .refused(request: "1", code: refusal))
        if case .accepted(let request, _)? = events.last { #expect(request == "2") } else { Issue.record("\(events)") }
        #expect(try await offlineSync(fixture, user: "bob", dialect).count == 1, "only the message that fits is queued")
        #expect(try fixture.journalEvents().contains("error:110"), "the refusal is journalled")
        await fixture.stop()
    }

    @Test(
        "a device silent past the idle timeout (a half-open link) is closed and what it had not acknowledged waits again",
        arguments: ContractDialect.allCases.filter { !$0.isMsync })
    func idleCloseRequeues(_ dialect: ContractDialect) async throws {
        let fixture = try SessionFixture(sessionIdleTimeout: .seconds(1))
        try prepare(fixture, for: dialect)
        let (reader, sender) = try await stalledReaderAndSender(fixture, dialect)
        let accepted = try send(count: 100, of: Self.kilobyte, from: sender)
        #expect(accepted.count == 100)
        // The close is journalled when the socket closes: a second of silence, then the close
        // frame waits behind what the device does not read until the 5 s close timer; 15 s
        // leaves room for a busy machine.
        for _ in 0..<1500 where !(try fixture.journalEvents().contains("closed:1001")) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try fixture.journalEvents().contains("closed:1001"), "the silent device was closed as idle")
        let taken = try reader.read { _ in false }.events.compactMap(\.messageID)
        let waiting = try await offlineSync(fixture, user: "reader", dialect)
        #expect(Set(waiting).count == waiting.count, "once")
        #expect(!waiting.isEmpty, "what the silent device's TCP never acknowledged waits")
        #expect(Set(accepted).subtracting(taken).subtracting(waiting).isEmpty, "lost: \(Set(accepted).subtracting(taken).subtracting(waiting).sorted())")
        await fixture.stop()
    }

    @Test(
        "an offline queue larger than the output cap reaches a device with a small window, at every login, without a 1008",
        arguments: ContractDialect.allCases)
    func offlineSyncLargerThanTheCapIsPaced(_ dialect: ContractDialect) async throws {
        let fixture = try fixture(for: dialect, outputLimit: 65_536)
        _ = try fixture.userToken("reader")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        // 6 MB queued while the reader is away: a hundred times the cap, and more than the
        // server's kernel buffers a socket (4 MiB at most), so most of it must wait in the server.
        let accepted = try send(count: 1200, of: String(repeating: "q", count: 5000), from: sender)
        #expect(accepted.count == 1200)
        for attempt in 1...2 {
            let reader = try ContractDevice(
                dialect, port: fixture.server.port, user: "reader", token: try fixture.userToken("reader", register: false),
                device: "narrow\(attempt)", receiveBufferBytes: 4096)
            if dialect == .imockJSON {
                // The sync is written as the 4 KiB window takes it: every message, in order.
                let read = try reader.read { $0.compactMap(\.messageID).count >= 1200 }
                #expect(read.close == nil, "login \(attempt) was closed with \(read.close ?? 0)")
                #expect(read.events.compactMap(\.messageID) == accepted, "login \(attempt)")
            } else {
                // msync and the gateway hold the sync until the device pulls it, page by page.
                try await eventuallyLoggedIn(fixture, user: "reader")
            }
            reader.client.socket.shutdownWrite()
        }
        #expect(try !fixture.journalEvents().contains("closed:1008"), "no login was closed for what its sync held")
        // Nothing was acked: the whole queue still waits, once, in order.
        #expect(try await offlineSync(fixture, user: "reader", dialect) == accepted)
        await fixture.stop()
    }

    @Test("an OpenIM device that does not read is closed by what it holds, not by its gzip-compressed size")
    func openIMGzipCountsWhatIsHeld() async throws {
        let fixture = try fixture(for: .openIMGob, outputLimit: 65_536)
        let (reader, sender) = try await stalledReaderAndSender(fixture, .openIMGob, readerQuery: "&compression=gzip")
        // 300 texts of 5,000 repeated characters: 1.5 MB held, a few KB once compressed.
        let accepted = try send(count: 300, of: String(repeating: "z", count: 5000), from: sender)
        #expect(accepted.count == 300)
        #expect(try fixture.journalEvents().contains("closed:1008"))
        _ = reader
        await fixture.stop()
    }

    @Test(
        "a device that never reads costs the server bounded memory: the queue's cap, not what is sent",
        arguments: [ContractDialect.msync, .imockJSON, .openIMGob])
    func nonReaderMemoryIsBounded(_ dialect: ContractDialect) async throws {
        let server = try await IMockProcess.start(["--app", "acme#chat:open", "--admin-secret", "s"])
        let http = HTTPTestClient(port: server.port)
        if dialect.isOpenIM {
            let set = try http.request(
                "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":1}}"#, token: "s")
            try #require(set.status == 200)
        }
        let reader = try ContractDevice(
            dialect, port: server.port, user: "reader", token: try http.userToken(appPath: "/acme/chat", user: "reader"),
            device: "stalled", receiveBufferBytes: 4096)
        let sender = try ContractDevice(
            dialect, port: server.port, user: "sender", token: try http.userToken(appPath: "/acme/chat", user: "sender"), device: "s")
        let probe = ProcessProbe(pid: server.pid)
        let before = try #require(probe.residentBytes())
        // 40,000 texts of 1,000 bytes: 40 MB sent to a device that takes none of it. The server
        // holds at most the queue's 10,000 (about 13 MB with their entries; up to the 16 MiB
        // output cap more while the connection lasts) and refuses the rest: 15–22 MiB measured.
        let text = String(repeating: "r", count: 1000)
        var accepted = 0
        for batch in 0..<40 {
            accepted += try send(count: 1000, of: text, from: sender, firstID: UInt64(batch * 1000 + 1)).count
        }
        let after = try #require(probe.residentBytes())
        #expect(accepted <= 10_000 + 1000, "past the cap sends are refused: \(accepted)")
        #expect(after - before < 36 << 20, "the server grew by \((after - before) >> 20) MiB for a reader that takes nothing")
        _ = reader
        try server.stop()
    }

    @Test("a send confirmed to an msync sender survives SIGKILL with --data while its recipient has not pulled it")
    func msyncConfirmedSendSurvivesSIGKILL() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let server = try await IMockProcess.start(["--data", data, "--app", "acme#chat:open"])
        let http = HTTPTestClient(port: server.port)
        let reader = try ContractDevice(
            .msync, port: server.port, user: "reader", token: try http.userToken(appPath: "/acme/chat", user: "reader", ttl: 86_400),
            device: "r")
        _ = try reader.client.socket.receive()  // its Provision answer: logged in, and it never pulls
        let sender = try ContractDevice(
            .msync, port: server.port, user: "sender", token: try http.userToken(appPath: "/acme/chat", user: "sender", ttl: 86_400),
            device: "s")
        let accepted = try send(count: 200, of: "m", from: sender)
        #expect(accepted.count == 200)
        _ = server.kill()
        let again = try await IMockProcess.start(["--data", data])
        let loop = try EventLoop()
        loop.start()
        let token = try HTTPTestClient(port: again.port).userToken(appPath: "/acme/chat", user: "reader", ttl: 86_400, register: false)
        let waiting = try await offlineSync(port: again.port, loop: loop, user: "reader", token: token, .msync)
        #expect(waiting == accepted, "every confirmed send, in order")
        loop.stop()
        try again.stop()
    }

    // MARK: Helpers

    @Test(
        "offline messages whose answer never reached the device wait again: pulled is not received",
        arguments: ContractDialect.allCases)
    func offlineAnswerThatNeverArrivedIsNotConfirmed(_ dialect: ContractDialect) async throws {
        let fixture = try fixture(for: dialect)
        _ = try fixture.userToken("reader")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        let accepted = try send(count: 20, of: "offline", from: sender)
        #expect(accepted.count == 20)
        let reader = try ContractDevice(
            dialect, port: fixture.server.port, user: "reader", token: try fixture.userToken("reader", register: false),
            device: "cut")
        try await eventuallyLoggedIn(fixture, user: "reader")
        // The network loses the next frame to the reader (the answer to its pull), then the
        // device is gone: it never had the messages.
        let fault = try fixture.control(
            "POST", "/_imock/faults", json: #"{"kind":"dropFrames","count":1,"app":"acme#chat","user":"reader"}"#)
        try #require(fault.status == 200)
        for (opcode, payload) in dialect.pullOffline(user: "reader", from: "sender") {
            try reader.client.send(opcode: opcode, payload: payload)
        }
        if dialect != .imockJSON { try await eventuallyNoFaults(fixture) }  // the answer was the frame dropped
        reader.client.socket.shutdownWrite()
        try await eventuallyLoggedOut(fixture, user: "reader")
        #expect(try await offlineSync(fixture, user: "reader", dialect) == accepted)
        await fixture.stop()
    }

    /// A logged-in device of "reader" with a 4 KiB receive buffer that reads only when told to,
    /// and a device of "sender"; `readerQuery` is added to the reader's upgrade (OpenIM options).
    private func stalledReaderAndSender(_ fixture: SessionFixture, _ dialect: ContractDialect, readerQuery: String = "")
        async throws -> (reader: ContractDevice, sender: ContractDevice)
    {
        let reader = try ContractDevice(
            dialect, port: fixture.server.port, user: "reader", token: try fixture.userToken("reader"), device: "stalled",
            receiveBufferBytes: 4096, query: readerQuery)
        try await eventuallyLoggedIn(fixture, user: "reader")
        let sender = try ContractDevice(
            dialect, port: fixture.server.port, user: "sender", token: try fixture.userToken("sender"), device: "s")
        return (reader, sender)
    }

    /// Gives the fixture's app OpenIM's login policy when `dialect` is the gateway.
    private func prepare(_ fixture: SessionFixture, for dialect: ContractDialect) throws {
        guard dialect.isOpenIM else { return }
        let set = try fixture.control(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":1}}"#)
        try #require(set.status == 200)
    }

    /// A server for `dialect`'s devices (an OpenIM app for the gateway), its output limit `limit`.
    func fixture(for dialect: ContractDialect, outputLimit limit: Int? = nil) throws -> SessionFixture {
        let fixture = try SessionFixture { options in if let limit { options.maxWebSocketOutputBytes = limit } }
        try prepare(fixture, for: dialect)
        return fixture
    }

    /// Sends `count` texts to "reader"; returns the ids of those accepted (after every answer
    /// came). `pinging` sends its heartbeat after every tenth (a stalled app whose SDK thread
    /// still pings: the server's close then finds unread input, which once made it a reset).
    func send(
        count: Int, of text: String, from sender: ContractDevice, pinging: ContractDevice? = nil, firstID: UInt64 = 1
    ) throws -> [String] {
        for index in 0..<count {
            try sender.send(text, to: "reader", id: firstID + UInt64(index))
            if index % 10 == 9 { try? pinging?.ping() }
        }
        let events = try sender.read { $0.filter(\.isAnswer).count >= count }.events
        return events.compactMap { if case .accepted(_, let id) = $0 { id } else { nil } }
    }

    /// The ids of the offline sync of a new imock JSON login of `user`.
    func offlineSync(_ fixture: SessionFixture, user: String, _ dialect: ContractDialect) async throws -> [String] {
        try await offlineSync(
            port: fixture.server.port, loop: fixture.clientLoop, user: user, token: try fixture.userToken(user, register: false),
            dialect)
    }

    /// The ids of the offline sync of a new imock JSON login of `user` at `port`.
    private func offlineSync(port: UInt16, loop: EventLoop, user: String, token: String, _ dialect: ContractDialect)
        async throws -> [String]
    {
        let device = try await ProtocolClient.connect(loop: loop, port: port)
        device.send(#"{"op":"login","id":"l","appKey":"acme#chat","user":"\#(user)","token":"\#(token)","device":{\#(dialect.imockDevice),"uuid":"again"}}"#)
        var ids: [String] = []
        guard (await device.next(op: "offline.start"))["op"]?.string == "offline.start" else { return [] }
        while true {
            let frame = await device.next()
            guard frame["op"]?.string == "message" else { break }
            ids.append(frame["messageId"]?.string ?? "?")
        }
        return ids
    }

    func eventuallyLoggedOut(_ fixture: SessionFixture, user: String) async throws {
        for _ in 0..<500 {
            let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
            if !sessions.contains(where: { $0["user"]?.string == user }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw FixtureFailure(description: "\(user) never left")
    }

    func eventuallyNoFaults(_ fixture: SessionFixture) async throws {
        for _ in 0..<500 {
            if try fixture.control("GET", "/_imock/faults").body["faults"]?.array?.isEmpty == true { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw FixtureFailure(description: "the fault was never used up")
    }

    func eventuallyLoggedIn(_ fixture: SessionFixture, user: String) async throws {
        for _ in 0..<500 {
            let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
            if sessions.contains(where: { $0["user"]?.string == user }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw FixtureFailure(description: "\(user) never logged in")
    }
}

extension ContractEvent {
    var isAnswer: Bool {
        switch self {
        case .accepted, .refused: true
        case .message: false
        }
    }

    var messageID: String? { if case .message(let id) = self { id } else { nil } }
}
