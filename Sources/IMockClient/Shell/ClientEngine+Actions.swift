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
        case .sendRequest(let generation, let request):
            guard let link = links[generation] else { return }
            deliver(link.wire.encode(request), on: link)
        case .closeSocket(let generation, let code):
            links.removeValue(forKey: generation)?.close(code: code)
            finishRoundTrips(generation: generation)
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
            delegates.deliver(log.append(callback))
        case .ignoredMessage(let reason):
            note("ignored frame: \(reason)")
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
        let link = SocketLink(generation: generation, wire: machine.options.transport.makeWire(), engine: self)
        links[generation] = link
        // A wire that logs in during the upgrade connects when the login frame is encoded.
        guard !link.wire.opensAtLogin else { return feed(.socketOpened(generation: generation)) }
        connect(link, path: link.wire.upgradeTarget(endpointPath: endpoint.path))
    }

    /// Connects `link`'s socket, upgrading at `path`.
    private func connect(_ link: SocketLink, path: String) {
        let generation = link.generation
        let address: SocketAddress
        do {
            address = try SocketAddress.resolve(host: endpoint.host, port: endpoint.port)
        } catch {
            links[generation] = nil
            feed(.socketClosed(generation: generation, sessionEndCode: nil, reason: error.description))
            return
        }
        WebSocketClient.connect(
            loop: loop, address: address, host: endpoint.hostHeader, path: path,
            tls: endpoint.secure ? tls : nil, serverName: endpoint.tlsServerName, delegate: link
        ) { [weak self] result in
            switch result {
            case .success(let channel):
                link.attach(channel)
            case .failure(let error):
                guard let self, self.links[generation] === link else { return }
                if link.wire.opensAtLogin, case .refused(let status, let body) = error {
                    self.deliver(link.wire.handshakeRefused(status: status, body: body), on: link)
                    guard self.links[generation] === link else { return }  // the refusal ended it
                }
                self.links[generation] = nil
                self.feed(.socketClosed(generation: generation, sessionEndCode: nil, reason: error.description))
            }
        }
    }

    /// The upgrade of a wire that logs in during it succeeded.
    func upgraded(_ link: SocketLink) {
        guard links[link.generation] === link else { return }
        deliver(link.wire.handshakeSucceeded(), on: link)
    }

    /// A message from the server, read by the connection's wire; only while the state machine
    /// still owns that socket.
    func messageReceived(_ link: SocketLink, _ message: WireMessage) {
        guard links[link.generation] === link else { return }
        deliver(link.wire.decode(message), on: link)
    }

    /// Sends what a wire step produced and feeds what the server said to the state machine. The
    /// pong of a ``startRoundTrip(_:)`` ping is the shell's own and never reaches the state machine.
    private func deliver(_ output: ClientWireOutput, on link: SocketLink) {
        if let target = output.connect { connect(link, path: target) }
        for message in output.send { link.send(message) }
        for input in output.inputs {
            switch input {
            case .success(.reply(let tag?, .pong)) where roundTrips[tag.rawValue] != nil:
                roundTrips.removeValue(forKey: tag.rawValue)?.finish(true)
            case .success(let input):
                feed(.serverSaid(generation: link.generation, input))
            case .failure(let error):
                feed(.messageUnreadable(generation: link.generation, reason: error.reason))
            }
        }
    }

    /// The socket opened, reported only while the state machine still owns it.
    func socketOpened(_ link: SocketLink) {
        guard links[link.generation] === link else { return }
        feed(.socketOpened(generation: link.generation))
    }

    /// The socket closed with `code` (nil: without a close frame), reported only while the state
    /// machine still owns it, with what the connection's wire says the close means.
    func socketClosed(_ link: SocketLink, code: UInt16?, reason: String) {
        guard links[link.generation] === link else { return }
        links[link.generation] = nil
        feed(.socketClosed(generation: link.generation, sessionEndCode: link.wire.sessionEndCode(ofClose: code), reason: reason))
        finishRoundTrips(generation: link.generation)
    }

    /// Sends a `ping` with an id of the shell's own on the live connection; `finish(true)` runs
    /// when its `pong` came, so every frame the server sent before it has been handled (TCP keeps
    /// order); `finish(false)` at once without an open connection, or when it closes first.
    func startRoundTrip(_ finish: @escaping (Bool) -> Void) {
        guard let generation = machine.liveSocket, let link = links[generation], link.isOpen else { return finish(false) }
        roundTripCounter += 1
        let id = "roundtrip-\(roundTripCounter)"
        roundTrips[id] = RoundTrip(generation: generation, finish: finish)
        deliver(link.wire.encode(.ping(RequestTag(id))), on: link)
    }

    /// Ends the round trips waiting on socket `generation` (nil: all of them) unanswered.
    func finishRoundTrips(generation: UInt64?) {
        let ended = roundTrips.filter { generation == nil || $0.value.generation == generation }
        for (id, roundTrip) in ended.sorted(by: { $0.key < $1.key }) {
            roundTrips[id] = nil
            roundTrip.finish(false)
        }
    }
}
