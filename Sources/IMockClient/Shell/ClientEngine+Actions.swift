import IMockCore
import IMockWire
import IMockNet

/// Carrying out the state machine's actions (loop side).
extension ClientEngine {
    func perform(_ action: ClientAction) {
        switch action {
        case .openDatabase(let user, let epoch):
            openDatabase(user: user, epoch: epoch)
        case .closeDatabase(let epoch):
            databases.removeValue(forKey: epoch)?.close()
        case .openSocket(let generation):
            openSocket(generation: generation)
        case .sendFrame(let generation, let frame):
            links[generation]?.send(frame.text)
        case .closeSocket(let generation, let code):
            links.removeValue(forKey: generation)?.close(code: code)
        case .scheduleTimer(let timer, let afterMs):
            let engine = bound
            timers.schedule(timer, afterMs: afterMs, nowMs: clock.nowMs) { timer in
                engine.value.engine?.feed(.timerFired(timer))
            }
        case .cancelTimer(let timer):
            timers.cancel(timer)
        case .storeMessage(let message, let offline):
            storeMessage(message, offline: offline)
        case .emit(let callback):
            log.append(callback)
            delegates.deliver(callback)
        case .ignoredFrame(let error):
            note("ignored frame: \(error)")
        }
    }

    private func openDatabase(user: String, epoch: UInt64) {
        let path = DatabaseLocation.path(user: user, directory: dataDirectory?.path)
        do throws(ClientError) {
            try dataDirectory?.create()
            databases[epoch] = try MessageDatabase(path: path)
            feed(.databaseOpened(epoch: epoch, error: nil))
        } catch {
            feed(.databaseOpened(epoch: epoch, error: error))
        }
    }

    private func storeMessage(_ message: ChatMessage, offline: Bool) {
        guard let database = databases[machine.loginEpoch] else {
            note("message \(message.messageId) not stored: no open database")
            return
        }
        do throws(ClientError) {
            try database.insert(message, offline: offline)
            if offline { feed(.messageStored(messageId: message.messageId)) }
        } catch {
            note("message \(message.messageId) not stored: \(error.message)")
        }
    }

    private func openSocket(generation: UInt64) {
        let link = SocketLink(generation: generation, engine: self)
        links[generation] = link
        let address: SocketAddress
        do {
            address = try SocketAddress.resolve(host: endpoint.host, port: endpoint.port)
        } catch {
            links[generation] = nil
            feed(.socketClosed(generation: generation, code: nil, reason: error.description))
            return
        }
        WebSocketClient.connect(
            loop: loop, address: address, host: endpoint.hostHeader, path: endpoint.path,
            tls: endpoint.secure ? tls : nil, serverName: endpoint.tlsServerName, delegate: link
        ) { [weak self] result in
            switch result {
            case .success(let channel):
                link.attach(channel)
            case .failure(let error):
                guard let self, self.links[generation] === link else { return }
                self.links[generation] = nil
                self.feed(.socketClosed(generation: generation, code: nil, reason: error.description))
            }
        }
    }

    /// A socket event, reported only while the state machine still owns that socket.
    func socketReported(_ link: SocketLink, _ event: ClientEvent) {
        guard links[link.generation] === link else { return }
        if case .socketClosed = event { links[link.generation] = nil }
        feed(event)
    }
}
