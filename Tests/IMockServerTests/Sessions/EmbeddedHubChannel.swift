import IMockCommon
import IMockCore
import IMockNet
@testable import IMockServer

/// A hub connection without a socket (as NIO's `EmbeddedChannel`): it records the frames the
/// hub sends and plays the socket's part — whether the socket takes what is written
/// (``socketTakes``), how much the peer acknowledged, the drain and close callbacks — so a test
/// decides each step. Single-threaded, like the loop it stands in for.
final class EmbeddedHubChannel: HubChannel {
    /// Text frames sent, in order.
    private(set) var sentTexts: [String] = []
    private(set) var closedWith: (code: WebSocketCloseCode, reason: String)?
    private(set) var abortedWith: CloseMode?
    /// Whether the socket takes what is written at once (false: it waits, as for a peer that
    /// does not read).
    var socketTakes = true
    private(set) var pendingOutputBytes = 0
    private(set) var bytesQueuedTotal: UInt64 = 0
    var bytesAcknowledgedByPeer: UInt64 = 0
    private(set) var readingPaused = false
    private var drainWatch: (belowBytes: Int, action: () -> Void)?
    private var socketCloseActions: [() -> Void] = []

    var isOpen: Bool { closedWith == nil && abortedWith == nil }
    var initiatedClose: (code: WebSocketCloseCode, reason: String)? { closedWith }

    func send(text: String) {
        guard isOpen else { return }
        sentTexts.append(text)
        write(text.utf8.count)
    }

    func send(binary: [UInt8]) {
        guard isOpen else { return }
        write(binary.count)
    }

    private func write(_ count: Int) {
        bytesQueuedTotal += UInt64(count)
        if !socketTakes { pendingOutputBytes += count }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        if isOpen { closedWith = (code, reason) }
    }

    func abort(_ mode: CloseMode) {
        if isOpen { abortedWith = mode }
    }

    func pauseReading() { readingPaused = true }
    /// The slicing of its writes a slicer or bandwidth fault asked for.
    private(set) var slicing: (bytes: Int, delay: Duration)?
    func sliceOutput(_ slicing: (bytes: Int, delay: Duration)?) { self.slicing = slicing }
    func resumeReading() { readingPaused = false }

    func whenOutputDrains(below bytes: Int, _ action: @escaping () -> Void) { drainWatch = (bytes, action) }

    func whenSocketCloses(_ action: @escaping () -> Void) { socketCloseActions.append(action) }

    /// The socket takes everything waiting; the drain watch runs when `notify` (a real socket
    /// tells it on its next flush).
    func drain(notify: Bool = true) {
        pendingOutputBytes = 0
        guard notify, let watch = drainWatch, pendingOutputBytes < watch.belowBytes else { return }
        drainWatch = nil
        watch.action()
    }

    /// The socket closed: its close callbacks run.
    func finishSocketClose() {
        let actions = socketCloseActions
        socketCloseActions = []
        for action in actions { action() }
    }

    /// The `op` of every frame sent, in order.
    var ops: [String] { sentTexts.map { (try? JSONValue.parse(Array($0.utf8)))?["op"]?.stringValue ?? "?" } }

    /// The `text` of every `message` frame sent, in order.
    var messageTexts: [String] {
        sentTexts.compactMap { text in
            guard let frame = try? JSONValue.parse(Array(text.utf8)), frame["op"]?.stringValue == "message" else { return nil }
            return frame["text"]?.stringValue
        }
    }
}
