import Foundation
import IMockClient
import IMockCore
@testable import IMockHarness
import IMockTestSupport
import Testing

extension HarnessTests {
    /// `Fixtures/schema.json` says what the parser reads, and every fixture is valid against it.
    @Suite("The fixture schema")
    struct SchemaTests {
        static func schema() throws -> JSONValue {
            try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/schema.json"))))
        }

        static func names(_ value: JSONValue?) -> Set<String> {
            Set(value?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }

        @Test("the schema lists exactly the parser's actions, control calls, expectation kinds and top-level keys")
        func sameVocabulary() throws {
            let defs = try Self.schema()["$defs"]
            #expect(Self.names(defs?["deviceStep"]?["properties"]?["do"]) == Set(FixtureParser.actionKeys.keys))
            #expect(Self.names(defs?["controlStep"]?["properties"]?["control"]) == Set(FixtureParser.controlKeys.keys))
            #expect(Self.names(defs?["expectStep"]?["properties"]?["expect"]) == Set(FixtureParser.expectationKeys.keys))
            let top = Set(try Self.schema()["properties"]?.objectValue?.map(\.key) ?? [])
            #expect(top == Set(FixtureParser.topKeys))
            let device = Set(defs?["device"]?["properties"]?.objectValue?.map(\.key) ?? [])
            #expect(device == Set(FixtureParser.deviceKeys))
            let expectedFailure = Set(defs?["expectedFailure"]?["properties"]?.objectValue?.map(\.key) ?? [])
            #expect(expectedFailure == Set(FixtureParser.expectedFailureKeys))
            let transports = Self.names(defs?["expectedFailure"]?["properties"]?["transport"])
            #expect(transports == Set(ClientTransport.allCases.map(\.rawValue)))
        }

        @Test("every fixture validates against the schema (skipped without python3 + jsonschema)")
        func fixturesValidate() async throws {
            guard await available("python3", python: "import jsonschema") else { return print("skipped: python3 with jsonschema not installed") }
            let script = """
                import json, glob, sys, jsonschema
                schema = json.load(open(sys.argv[1] + "/Fixtures/schema.json"))
                jsonschema.Draft202012Validator.check_schema(schema)
                validator = jsonschema.Draft202012Validator(schema)
                bad = [f"{f}: {list(e.absolute_path)} {e.message[:160]}" for f in sorted(glob.glob(sys.argv[1] + "/Fixtures/*/*.json"))
                       for e in list(validator.iter_errors(json.load(open(f))))[:1]]
                print("\\n".join(bad) or "ok")
                """
            let output = try await ExternalCommand.run(lowPriority[0], Array(lowPriority.dropFirst()) + ["python3", "-c", script, packageRoot])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == "ok\n", "\(output.stdout)")
        }
    }
}
