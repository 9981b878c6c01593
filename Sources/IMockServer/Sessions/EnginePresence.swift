import IMockCore

/// The REST layer's view of who is online, read from a snapshot of the session engine.
struct EnginePresence: PresenceView {
    let engine: SessionEngine

    func sessions(of username: String, in app: AppKey) -> [DeviceEntry] {
        engine.sessions(of: username, in: app).map(\.deviceEntry)
    }
}
