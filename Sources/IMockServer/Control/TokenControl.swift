/// Control-API endpoints of this area (filled in by its own change; see docs/CONTROL-API.md).
enum TokenControl {
    static let routes: [ControlRoute] = []
}
