import IMockCore

/// The completion of a login, logout or renewToken call: nil error for success.
typealias CallDone = @Sendable (ClientError?) -> Void
/// The completion of a send: the server's message id or the error.
typealias SendDone = @Sendable (Result<String, ClientError>) -> Void

/// An API call waiting for its canonical completion callback.
enum PendingCall: Sendable {
    case login(CallDone)
    case logout(CallDone)
    case renewToken(callID: String, CallDone)
    case send(localID: String, SendDone)

    /// Completes the call with `error` without the state machine.
    func fail(_ error: ClientError) {
        switch self {
        case .login(let done), .logout(let done), .renewToken(_, let done): done(error)
        case .send(_, let done): done(.failure(error))
        }
    }
}

/// The API calls waiting for their completions: logins in call order (the state machine emits
/// one completion per call), renewals by call id and sends by local id (their replies may come
/// in any order). Loop-confined.
struct PendingCalls {
    private var logins: [CallDone] = []
    private var logouts: [CallDone] = []
    private var renewals: [String: CallDone] = [:]
    private var sends: [String: SendDone] = [:]

    mutating func add(_ call: PendingCall) {
        switch call {
        case .login(let done): logins.append(done)
        case .logout(let done): logouts.append(done)
        case .renewToken(let callID, let done): renewals[callID] = done
        case .send(let localID, let done): sends[localID] = done
        }
    }

    /// Fails every waiting call with `error` (the client is shutting down).
    mutating func failAll(_ error: ClientError) -> [() -> Void] {
        var completions: [() -> Void] = (logins + logouts + Array(renewals.values)).map { done in { done(error) } }
        completions += sends.values.map { done in { done(.failure(error)) } }
        self = PendingCalls()
        return completions
    }

    /// The completion `callback` answers: `current` (the call being handled) when it matches and
    /// is not answered yet, else the waiting call it names (renewals, sends) or the oldest waiting
    /// login. A logout completion answers every waiting logout (a second logout shares the running one).
    mutating func take(for callback: CanonicalCallback, current: inout PendingCall?) -> [() -> Void] {
        switch callback {
        case .loginCompleted(_, let error):
            if case .login(let done)? = current {
                current = nil
                return [{ done(error) }]
            }
            guard !logins.isEmpty else { return [] }
            let done = logins.removeFirst()
            return [{ done(error) }]
        case .logoutCompleted(let error, _):
            var answered = logouts
            logouts = []
            if case .logout(let done)? = current {
                current = nil
                answered.append(done)
            }
            return answered.map { done in { done(error) } }
        case .renewTokenCompleted(let callID, let error):
            var done = renewals.removeValue(forKey: callID)
            if case .renewToken(callID, let currentDone)? = current {
                current = nil
                done = currentDone
            }
            guard let done else { return [] }
            return [{ done(error) }]
        case .sendCompleted(let localID, let messageId, let error):
            var done = sends.removeValue(forKey: localID)
            if case .send(localID, let currentDone)? = current {
                current = nil
                done = currentDone
            }
            guard let done else { return [] }
            let result: Result<String, ClientError> =
                if let error { .failure(error) } else { .success(messageId ?? "") }
            return [{ done(result) }]
        default:
            return []
        }
    }
}
