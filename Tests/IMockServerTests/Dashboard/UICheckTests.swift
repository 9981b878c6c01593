import Foundation
import Testing
import IMockTestSupport

/// scripts/ui-check.sh: the dashboard in headless Chromium against a real `imock serve` —
/// every control clicked and its effect checked on the page, in the event stream and on the
/// device. Skipped where Debian's `chromium` is not installed (`.ci/run` installs it).
@Suite("Dashboard in a real browser")
struct UICheckTests {
    static let chromium = ExternalCommand.isAvailable("chromium")

    @Test(
        "ui-check.sh: log a device in, kick it, expire tokens, faults, clock, reset — all from the page",
        .enabled(if: chromium, "chromium is not installed (apt-get install -y chromium); ui-check skipped"),
        .timeLimit(.minutes(5)))
    func uiCheck() async throws {
        let screenshots = try ExternalCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: screenshots) }
        let result = try await Repository.run(script: "ui-check.sh", ["--screenshots", screenshots])
        #expect(result.status == 0, "ui-check failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("ui-check: passed"))
        for name in ["dashboard-laptop.png", "dashboard-phone.png"] {
            let data = FileManager.default.contents(atPath: screenshots + "/" + name) ?? Data()
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is not a PNG")
        }
    }
}
