import IMockClient
import IMockCommon
import IMockHarness
import Testing

@testable import imock

/// `imock explore`'s command line (docs/EXPLORE.md § Running).
@Suite("imock explore options")
struct ExploreOptionsTests {
    @Test("the options make the configuration")
    func options() throws {
        let options = try ExploreOptions.parse(
            ["--seed", "7", "--runs", "3", "--steps", "20", "--profile", "zim", "--transport", "msync", "--unknown", "C10",
             "--unknown", "login-then-connected", "--out", "findings", "--json", "e.json", "--junit", "j.xml", "--html", "h.html"],
            environment: [:])
        #expect(options.configuration.seed == 7 && options.configuration.runs == 3 && options.configuration.steps == 20)
        #expect(options.configuration.profile == .zim && options.configuration.settings.transport == .msync)
        #expect(options.configuration.unknown == ["C10", "login-then-connected"])
        #expect(options.output.directory == "findings" && options.output.jsonPath == "e.json" && options.output.junitPath == "j.xml")
        #expect(options.output.htmlPath == "h.html")
        #expect(try ExploreOptions.parse(["--real-time-quiet", "8"], environment: [:]).configuration.settings.realTimeQuiet == .seconds(8))
        #expect(try ExploreOptions.parse(["--transport", "openim"], environment: [:]).configuration.profile == .openim)
        let adapter = try ExploreOptions.parse(["--adapter", "py=python3 a.py"], environment: [:]).configuration.settings
        #expect(adapter.adapters["py"] == ["python3", "a.py"] && adapter.adapterOverride == "py")
        // A real-time SDK's back-off is not waited for by the closing virtual minutes.
        #expect(try ExploreOptions.parse(["--adapter", "py=python3 a.py"], environment: [:]).configuration.unknown == ["dropped-device-reconnects", "device-limit"])
    }

    @Test("--unknown-file reads ids one a line, with comments")
    func unknownFile() throws {
        let directory = try Files.makeTemporaryDirectory(prefix: "imock-explore-options-")
        defer { try? Files.removeTree(directory) }
        try Files.writeAtomically(directory + "/unknown.txt", Array("# known SDK differences\nC10  # messages\n\nE3\n".utf8))
        #expect(try ExploreOptions.parse(["--unknown-file", directory + "/unknown.txt"], environment: [:]).configuration.unknown == ["C10", "E3"])
        try Files.writeAtomically(directory + "/bad.txt", Array("Q7\n".utf8))
        #expect(throws: UsageError.self) { try ExploreOptions.parse(["--unknown-file", directory + "/bad.txt"], environment: [:]) }
    }

    @Test("bad usage exits 64 with the reason")
    func usage() {
        for arguments in [
            ["--runs", "0"], ["--seed", "-1"], ["--steps", "x"], ["--profile", "xmpp"], ["--transport", "xmpp"], ["--unknown", "Q7"],
            ["--adapter", "noequals"], ["--real-time-quiet", "0"], ["--unknown-file", "/no/such/file"], ["--transport", "openim", "--profile", "zim"], ["stray"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try ExploreOptions.parse(arguments, environment: [:]) }
            #expect(ExploreCommand.run(arguments, environment: [:]) == 64, "\(arguments)")
        }
        #expect(ExploreCommand.run(["--help"], environment: [:]) == 0)
        #expect(ExploreOptions.usage.contains("EXIT STATUS"))
    }
}
