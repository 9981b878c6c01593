import IMockCore

/// The REST layer's view of who is online, read from a snapshot of the session engine.
struct EnginePresence: PresenceView {
    let engine: SessionEngine
    /// The connections whose app is in the background.
    var background: Set<ConnectionID> = []

    func sessions(of username: String, in app: AppKey) -> [DeviceEntry] {
        engine.sessions(of: username, in: app).map(\.deviceEntry)
    }

    func connections(of username: String, in app: AppKey) -> [PresenceConnection] {
        engine.sessions(of: username, in: app).map {
            PresenceConnection(
                connection: $0.connection, platform: $0.device.platform, isBackground: background.contains($0.connection))
        }
    }
}
