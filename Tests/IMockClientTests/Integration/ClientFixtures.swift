import Dispatch
import IMockClient
import IMockCore
import Synchronization

/// Client options for the integration tests: device `uuid`, a short reconnect back-off.
func testOptions(profile: SDKProfile, uuid: String = "dev1", name: String = "phone") throws -> ClientOptions {
    try ClientOptions(
        appKey: ClientTestServer.app, device: DeviceDescription(platform: .easemob(.ios), name: name, uuid: uuid),
        profile: profile, reconnect: ReconnectPolicy(steps: [.init(throughAttempt: nil, minMs: 5, maxMs: 10)]),
        randomSeed: 7)
}

/// A delegate that keeps the summaries of the records it got.
final class RecordingDelegate: IMClientDelegate {
    private let received = Mutex<[String]>([])

    var summaries: [String] { received.withLock { $0 } }

    func imClient(didEmit callback: EmittedCallback) {
        received.withLock { $0 += callback.records.map(\.summary) }
    }
}

/// How many canonical callbacks of the log match `predicate`.
func count(_ callbacks: [EmittedCallback], where predicate: (CanonicalCallback) -> Bool) -> Int {
    callbacks.filter { predicate($0.canonical) }.count
}

func isConnected(_ callback: CanonicalCallback) -> Bool {
    if case .connected = callback { true } else { false }
}

func isSessionEnd(_ callback: CanonicalCallback) -> Bool {
    if case .sessionEnded = callback { true } else { false }
}

func isTokenWarning(_ callback: CanonicalCallback) -> Bool {
    if case .tokenWillExpire = callback { true } else { false }
}

func isConnectionLost(_ callback: CanonicalCallback) -> Bool {
    if case .connectionLost = callback { true } else { false }
}

func isLogoutCompleted(_ callback: CanonicalCallback) -> Bool {
    if case .logoutCompleted = callback { true } else { false }
}

func isMessage(_ callback: CanonicalCallback) -> Bool {
    if case .messageReceived = callback { true } else { false }
}
