import IMockCommon
import IMockNet
import IMockCore

extension MockServer {
    /// Starts the recordings of `--record` (the apps must exist by then: `--app`, `--seed` or
    /// the store); an unknown app is logged and not recorded.
    func startRecordings() {
        for text in configuration.recordedApps {
            guard let key = try? AppKey(parsing: text), let app = try? domain.value.directory.app(key) else {
                logger.warning("record.unknownApp", ["app": text, "reason": "no such app; --record names an app of --app, --seed or the store"])
                continue
            }
            hub.recorder.start(app, nowMs: clock.nowMs)
            logger.info("record.started", ["app": key.description])
        }
    }
}
