#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims

/// Turns SIGINT and SIGTERM into a callback on the event loop (through a signalfd), so a
/// server stops between events instead of inside one. Create it on the thread that will run
/// the loop, before starting other threads, so they inherit the blocked signal mask.
public final class TerminationSignals: IOHandler {
    private let fd: Int32
    private let loop: EventLoop
    private let onSignal: (Int32) -> Void

    public init(loop: EventLoop, onSignal: @escaping (Int32) -> Void) throws(SystemError) {
        fd = try syscallChecked("signalfd") { cimock_termination_signalfd() }
        self.loop = loop
        self.onSignal = onSignal
        try loop.register(fd: fd, interest: .read, handler: self)
    }

    public func handleIO(_ events: IOEvents) {
        var info = signalfd_siginfo()
        let count = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
        guard count == MemoryLayout<signalfd_siginfo>.size else { return }
        onSignal(Int32(info.ssi_signo))
    }

    deinit {
        loop.deregister(fd: fd)
        close(fd)
    }
}
