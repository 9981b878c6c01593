import Testing

@testable import IMockServer

#if canImport(Glibc)
import Glibc
#endif

/// The router and `docs/openapi.yaml` must list the same (method, path) pairs.
@Suite struct OpenAPISpecTests {
    /// `docs/openapi.yaml` relative to this file (Tests/IMockServerTests/REST/).
    static var specPath: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/") + "/docs/openapi.yaml"
    }

    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Line-based: under `paths:`, a 2-space-indented `/path:` opens a path and a
    /// 4-space-indented HTTP method key adds an operation.
    static func operations(inSpec text: String) -> [String] {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        var inPaths = false
        var currentPath: String?
        var operations: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = currentPath {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if methods.contains(String(key)) { operations.append("\(key.uppercased()) \(path)") }
            }
        }
        return operations.sorted()
    }

    @Test func specAndRouterAgree() throws {
        let text = try #require(Self.readFile(Self.specPath), "cannot read \(Self.specPath)")
        let spec = Self.operations(inSpec: text)
        let router = RESTAPI.routes.map { "\($0.method) \($0.pattern)" }.sorted()
        #expect(spec.count == 16)
        #expect(spec == router)
    }

    @Test func parserSeesMethodsOnlyUnderPaths() {
        let text = """
            components:
              /nope:
                get: {}
            paths:
              /a:
                parameters: []
                get:
                  responses: {}
                post: {}
              /b/{x}:
                delete: {}
            """
        #expect(Self.operations(inSpec: text) == ["DELETE /b/{x}", "GET /a", "POST /a"])
    }
}
