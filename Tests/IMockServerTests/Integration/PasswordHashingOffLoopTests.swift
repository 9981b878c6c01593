#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Synchronization
import Testing

/// Registration derives password hashes on the worker pool: the event loop keeps answering
/// other connections while a batch of 60 waits for its hashes.
@Suite("Password hashing off the event loop")
struct PasswordHashingOffLoopTests {
    @Test("a health request made while a batch of 60 waits for its hashes is answered before the batch")
    func loopAnswersDuringABatch() async throws {
        // The server's only worker thread is held by a gate until the health answer is in:
        // the batch cannot be answered before it however slow or loaded the machine is.
        let workers = WorkerPool(threads: 1)
        let gate = Gate()
        workers.run { gate.wait() }
        defer { gate.open() }
        let server = try InProcessServer(apps: [.init(key: "acme#chat", registrationMode: .authorized)], workers: workers)
        let http = HTTPTestClient(port: server.port)
        let (id, secret) = try await server.credentials(of: "acme#chat")
        let token = try http.request(
            "POST", "/acme/chat/token",
            json: #"{"grant_type":"client_credentials","client_id":"\#(id)","client_secret":"\#(secret)"}"#
        ).body["access_token"]?.string ?? ""
        let batch = "[" + (0..<60).map { #"{"username":"h\#($0)","password":"pw\#($0)"}"# }.joined(separator: ",") + "]"

        let finished = Mutex<[String]>([])
        let registration = Task.detached {
            let answer = try http.request("POST", "/acme/chat/users", json: batch, token: token)
            finished.withLock { $0.append("batch") }
            return answer
        }
        // The batch has been read and its 60 hashes wait behind the gate.
        while workers.waitingJobCount < 60 { try await Task.sleep(for: .milliseconds(5)) }
        let health = try http.raw("GET", "/_imock/health")
        finished.withLock { $0.append("health") }
        #expect(health.head.status == 200)
        gate.open()

        let created = try await registration.value
        #expect(created.status == 200)
        #expect(created.body["entities"]?.array?.count == 60)
        #expect(finished.withLock { $0 } == ["health", "batch"])
        // The stored hashes check the passwords.
        let userToken = try http.request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"password","username":"h59","password":"pw59"}"#)
        #expect(userToken.status == 200)
        let wrong = try http.request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"password","username":"h59","password":"pw58"}"#)
        #expect(wrong.status == 400 || wrong.status == 401)
        await server.stop()
        workers.stop()
    }
}

/// A one-shot gate: `wait()` blocks its thread until `open()`.
private final class Gate: Sendable {
    private let isOpen = Mutex(false)

    func wait() {
        while !isOpen.withLock({ $0 }) { usleep(1000) }
    }

    func open() { isOpen.withLock { $0 = true } }
}
