import IMockCommon
import Glibc
import Testing

@testable import IMockCore

@Suite struct SeedSupportTests {
    @Test(arguments: [
        ([], ""), ([0x66], "Zg=="), ([0x66, 0x6F], "Zm8="), ([0x66, 0x6F, 0x6F], "Zm9v"),
        ([0xFB, 0xFF, 0xBF], "+/+/"),
    ] as [([UInt8], String)])
    func base64RoundTrips(_ bytes: [UInt8], _ text: String) {
        #expect(Base64.encode(bytes) == text)
        #expect(Base64.decode(text) == bytes)
    }

    @Test(arguments: ["Zg", "Zg=", "Zh==", "Z===", "Zg=A", "-_-_", "Zm9v\n", "Zm 9"])
    func base64RefusesNonCanonicalInput(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test func prettyJSONLayout() {
        let value: JSONValue = ["a": [1, [] as JSONValue, [:] as JSONValue], "b": ["c": nil]]
        #expect(
            String(decoding: PrettyJSON.encode(value), as: UTF8.self)
                == "{\n  \"a\": [\n    1,\n    [],\n    {}\n  ],\n  \"b\": {\n    \"c\": null\n  }\n}\n")
    }

    /// Every ```json block of docs/SEED.md parses, and the three named examples are the ones tested here.
    @Test func docsExamplesAreTheTestedOnes() throws {
        let docsPath = SeedDocsLocation.packageRoot(from: #filePath) + "/docs/SEED.md"
        let text = try #require(readFile(docsPath), "cannot read \(docsPath)")
        let blocks = jsonBlocks(in: text)
        #expect(blocks == [SeedExamples.minimal, SeedExamples.complete, SeedExamples.loginPolicies])
        for block in blocks { _ = try SeedDocument.parse(bytes: Array(block.utf8)) }
    }

    private func jsonBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```json" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}

/// The whole file at `path` as UTF-8 text, or nil when it cannot be read.
private func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

enum SeedDocsLocation {
    /// `Tests/IMockCoreTests/Seed/File.swift` → the package root.
    static func packageRoot(from filePath: String) -> String {
        var parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }
}

@Suite struct SeedKeyOrderTests {
    /// The complete example (an export) lists members exactly in ``SeedKeys`` order.
    @Test func exportWritesMembersInTheDocumentedOrder() throws {
        let json = try JSONValue.parse(SeedExamples.complete)
        #expect(json.objectValue?.map(\.key) == SeedKeys.document)
        let app = try #require(json["apps"]?.arrayValue?.first)
        #expect(app.objectValue?.map(\.key) == SeedKeys.app)
        let alice = try #require(app["users"]?.arrayValue?.first)
        #expect(alice.objectValue?.map(\.key) == SeedKeys.user.filter { $0 != "password" })
        #expect(alice["passwordHash"]?.objectValue?.map(\.key) == SeedKeys.passwordHash)
        let policy = try #require(app["loginPolicy"])
        #expect(policy.objectValue?.map(\.key) == SeedKeys.easemobLoginPolicy.filter { $0 != "rule" })
        #expect(policy["deviceLimits"]?.objectValue?.map(\.key) == ["default", "desktop", "custom:7"])
    }

    /// The other two forms of `loginPolicy`, as export writes them.
    @Test func exportWritesEveryLoginPolicyMemberInTheDocumentedOrder() throws {
        let document = try SeedExamples.document(SeedExamples.loginPolicies)
        let apps = try #require(JSONValue.parse(document.encoded())["apps"]?.arrayValue)
        let keys = apps.map { $0["loginPolicy"]?.objectValue?.map(\.key) ?? [] }
        #expect(keys == [
            SeedKeys.easemobLoginPolicy.filter { $0 != "rule" },
            SeedKeys.openIMLoginPolicy,
            SeedKeys.easemobLoginPolicy.filter { $0 != "deviceLimits" },
        ])
        #expect(
            apps[0]["loginPolicy"]?["deviceLimits"]?.objectValue?.map(\.key)
                == SeedKeys.deviceLimits.filter { $0 == "default" || $0 == "mobile" } + ["custom:7"])
    }
}
