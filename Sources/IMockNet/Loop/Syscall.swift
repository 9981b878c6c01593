#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims

/// The outcome of a non-blocking system call.
public enum IOResult<Value: Sendable>: Sendable {
    case done(Value)
    /// `EAGAIN` / `EWOULDBLOCK`: try again when the descriptor is ready.
    case wouldBlock
}

/// Runs a system call returning a negative value on failure: retries on `EINTR`, maps
/// `EAGAIN`/`EWOULDBLOCK` to `.wouldBlock`, and throws every other failure.
///
/// `EBADF` and `EFAULT` mean imock passed a bad descriptor or pointer: a programming error,
/// so they stop the process in debug builds instead of being handled as I/O failures.
@inline(__always)
func syscall<T: BinaryInteger & Sendable>(_ name: String, _ body: () -> T) throws(SystemError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = cimock_errno()
        switch code {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            return .wouldBlock
        default:
            assert(code != EBADF && code != EFAULT, "\(name): \(SystemError(name, code: code))")
            throw SystemError(name, code: code)
        }
    }
}

/// Runs a system call that must not block; `EAGAIN` is reported as an error.
@inline(__always)
func syscallChecked<T: BinaryInteger & Sendable>(_ name: String, _ body: () -> T) throws(SystemError) -> T {
    switch try syscall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(name, code: EAGAIN)
    }
}
