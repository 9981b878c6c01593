import IMockCore

extension IMClient {
    /// Logs in (E3, O3, Z1): returns once the login completed; logged in is not connected.
    /// `offline` is ZIM's offline login of the last online user (Z5).
    public func login(userId: String, token: String, offline: Bool = false) async throws(ClientError) {
        let error: ClientError? = await withCheckedContinuation { continuation in
            engine.submit(
                .login(user: userId, token: token, offline: offline),
                call: .login { continuation.resume(returning: $0) })
        }
        if let error { throw error }
    }

    /// Logs in; `completion` runs on the client's callback queue with nil on success.
    public func login(
        userId: String, token: String, offline: Bool = false, completion: @escaping @Sendable (ClientError?) -> Void
    ) {
        engine.submit(.login(user: userId, token: token, offline: offline), call: .login { [self] error in
            onCallbackQueue { completion(error) }
        })
    }

    /// Logs out (E8); with `unbindDeviceToken` the server must confirm, and a failure leaves the
    /// user logged in.
    public func logout(unbindDeviceToken: Bool) async throws(ClientError) {
        let error: ClientError? = await withCheckedContinuation { continuation in
            engine.submit(.logout(unbindDeviceToken: unbindDeviceToken), call: .logout { continuation.resume(returning: $0) })
        }
        if let error { throw error }
    }

    /// Logs out; `completion` runs on the client's callback queue.
    public func logout(unbindDeviceToken: Bool, completion: @escaping @Sendable (ClientError?) -> Void) {
        engine.submit(.logout(unbindDeviceToken: unbindDeviceToken), call: .logout { [self] error in
            onCallbackQueue { completion(error) }
        })
    }

    /// Replaces the session's token (E5, Z4).
    public func renewToken(_ token: String) async throws(ClientError) {
        let callID = nextLocalID()
        let error: ClientError? = await withCheckedContinuation { continuation in
            engine.submit(
                .renewToken(token, callID: callID), call: .renewToken(callID: callID) { continuation.resume(returning: $0) })
        }
        if let error { throw error }
    }

    /// Replaces the session's token; `completion` runs on the client's callback queue.
    public func renewToken(_ token: String, completion: @escaping @Sendable (ClientError?) -> Void) {
        let callID = nextLocalID()
        engine.submit(.renewToken(token, callID: callID), call: .renewToken(callID: callID) { [self] error in
            onCallbackQueue { completion(error) }
        })
    }

    /// Sends a 1:1 text message; returns the server's message id.
    @discardableResult
    public func send(to recipient: String, text: String) async throws(ClientError) -> String {
        let localID = nextLocalID()
        let result: Result<String, ClientError> = await withCheckedContinuation { continuation in
            engine.submit(
                .send(localID: localID, to: recipient, text: text),
                call: .send(localID: localID) { continuation.resume(returning: $0) })
        }
        return try result.get()
    }
}
