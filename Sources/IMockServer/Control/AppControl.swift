/// Control-API endpoints of this area (filled in by its own change; see docs/CONTROL-API.md).
enum AppControl {
    static let routes: [ControlRoute] = []
}
