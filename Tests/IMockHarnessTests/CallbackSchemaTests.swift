import Foundation
import IMockClient
import IMockCore
import IMockHarness
import Testing

/// The callback schema (docs/FIXTURES.md § Callback schema) is generated from the profile
/// tables, checked in as docs/callbacks.json, and names every callback the catalogue expects.
@Suite("Callback schema")
struct CallbackSchemaTests {
    @Test("docs/callbacks.json is what imock callbacks prints now (regenerate: imock callbacks > docs/callbacks.json)")
    func checkedInCopyIsCurrent() throws {
        let checkedIn = try String(contentsOfFile: packageRoot + "/docs/callbacks.json", encoding: .utf8)
        #expect(checkedIn == CallbackSchema.json().prettyString)
    }

    @Test("every callback a catalogue fixture expects is in its device's profile, with the arguments it matches")
    func catalogueUsesOnlySchemaCallbacks() throws {
        let schema = CallbackSchema.json()
        var checked = 0
        for file in catalogueFiles {
            let fixture = try loadFixture(file)
            let profiles = Dictionary(fixture.devices.map { ($0.name, $0.profile) }, uniquingKeysWith: { first, _ in first })
            for pattern in fixture.steps.flatMap(\.expectedCallbacks) {
                guard let profile = profiles[pattern.device] else { continue }
                let callback = schema["profiles"]?[profile.rawValue]?["callbacks"]?[pattern.name]
                #expect(callback != nil, "\(file): \(pattern.name) is not a \(profile.rawValue) callback")
                let arguments = Set(callback?["arguments"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
                for argument in pattern.arguments {
                    #expect(arguments.contains(argument.name), "\(file): \(pattern.name) has no argument \(argument.name)")
                }
                checked += 1
            }
        }
        #expect(checked > 100, "the catalogue's expectations were read: \(checked)")
    }

    @Test("every callback name the profile tables can produce is in the schema: the samples reach each branch")
    func samplesReachEveryTableName() throws {
        let source = try String(contentsOfFile: packageRoot + "/Sources/IMockClient/Profiles/ProfileTable.swift", encoding: .utf8)
        let names = Set(source.matches(of: /VendorCall\("([A-Za-z]+)"/).map { String($0.1) })
        let schema = CallbackSchema.json()
        let generated = Set(SDKProfile.allCases.flatMap { profile in
            schema["profiles"]?[profile.rawValue]?["callbacks"]?.objectValue?.map(\.key) ?? []
        })
        #expect(names.count > 20)
        #expect(names.subtracting(generated).isEmpty, "not generated: \(names.subtracting(generated).sorted())")
    }
}

extension Step {
    /// The callback patterns of the step's expectation, if it is one.
    fileprivate var expectedCallbacks: [CallbackPattern] {
        guard case .expect(let expectation) = kind else { return [] }
        switch expectation.kind {
        case .sequence(_, let callbacks, _, _), .unordered(let callbacks), .order(let callbacks), .absent(let callbacks, _): return callbacks
        case .state, .sent: return []
        }
    }
}
