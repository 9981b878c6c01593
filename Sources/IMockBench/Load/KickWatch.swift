import IMockNet

/// Waits for the `kicked` frames of a set of devices after a call (or a login) made at a
/// known instant, and times each from that instant. Loop-confined.
final class KickWatch {
    /// What the watch saw.
    struct Result {
        /// Call → kicked frame, per kicked device, in milliseconds.
        var samples = Samples()
        /// Devices closed without a kicked frame first.
        var closedWithoutKick = 0
        /// Devices neither kicked nor closed at the deadline.
        var missed = 0
    }

    private let loop: EventLoop
    private let devices: [BenchDevice]
    private var result = Result()
    private var waiting: Int
    private var startedAt: Int64 = 0
    private var deadline: LoopTimerID?
    private var completion: ((Result) -> Void)?

    /// Watches the devices of `devices` still open and not kicked yet, until `expecting` of
    /// them (default all) were kicked or closed.
    init(loop: EventLoop, devices: [BenchDevice], expecting: Int? = nil) {
        self.loop = loop
        self.devices = devices.filter { !$0.isClosed && $0.kickedCode == nil }
        self.waiting = min(expecting ?? self.devices.count, self.devices.count)
    }

    /// Starts watching; call right before the call that kicks. `completion` runs when every
    /// device was kicked or closed, or after `timeout`.
    func watch(timeout: Duration, completion: @escaping (Result) -> Void) {
        self.completion = completion
        startedAt = monotonicNanoseconds()
        for device in devices {
            var seen = false
            device.onEvent = { [self] _, event in
                guard case .kicked = event, !seen, self.completion != nil else { return }
                seen = true
                result.samples.add(milliseconds(from: startedAt, to: monotonicNanoseconds()))
                settle()
            }
            device.onClose = { [self] _, _ in
                guard !seen, self.completion != nil else { return }
                seen = true
                result.closedWithoutKick += 1
                settle()
            }
        }
        deadline = loop.scheduleTimer(after: timeout) { [self] in
            result.missed = waiting
            waiting = 0
            finish()
        }
        if waiting == 0 { finish() }
    }

    /// Times the kicks from `instant` instead of the start of the watch (a login sent later).
    func measure(from instant: Int64) { startedAt = instant }

    private func settle() {
        waiting -= 1
        if waiting == 0 { finish() }
    }

    private func finish() {
        guard let completion else { return }
        self.completion = nil
        if let deadline { loop.cancelTimer(deadline) }
        for device in devices { device.onEvent = nil }
        completion(result)
    }
}
