import IMockCommon

/// Finds fixture files (`*.json` below the given paths, `schema.json` excluded) and parses them.
public enum FixtureLoader {
    /// The fixture files of `paths` (files as given, directories searched), sorted.
    public static func files(_ paths: [String]) throws(FixtureError) -> [String] {
        var found: [String] = []
        for path in paths {
            guard let kind = Files.kind(path) else {
                throw FixtureError(file: path, path: "", reason: "no such file or directory")
            }
            guard kind == .directory else {
                found.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let entries: [String]
            do throws(FileError) { entries = try Files.filesBelow(base) } catch {
                throw FixtureError(file: path, path: "", reason: error.reason)
            }
            for entry in entries where entry.hasSuffix(".json") && !entry.hasSuffix("schema.json") {
                found.append(base + "/" + entry)
            }
        }
        return found
    }

    /// Parses every file, a parameterised one into a fixture per row (`file[code=206]`); all
    /// errors, not just the first.
    public static func load(_ files: [String]) -> (fixtures: [Fixture], errors: [FixtureError]) {
        var fixtures: [Fixture] = []
        var errors: [FixtureError] = []
        for file in files {
            let bytes: [UInt8]
            do throws(FileError) { bytes = try Files.read(file) } catch {
                errors.append(FixtureError(file: file, path: "", reason: error.reason))
                continue
            }
            do {
                for var fixture in try FixtureParser.parseCases(bytes, file: file) {
                    fixture.file = fixture.parameters.map { "\(file)[\($0)]" } ?? file
                    fixtures.append(fixture)
                }
            } catch {
                errors.append(error)
            }
        }
        return (fixtures, errors)
    }

    /// Whether `fixture` matches `--filter`: a rule id (`E10`), a rule family (`E`), or text in
    /// its file name or title.
    public static func matches(_ fixture: Fixture, filter: String) -> Bool {
        if fixture.rules.contains(where: { $0.id == filter }) { return true }
        if filter.count == 1, filter.first?.isUppercase == true, fixture.rules.contains(where: { $0.id.hasPrefix(filter) }) {
            return true
        }
        return fixture.file.contains(filter) || fixture.name.contains(filter)
    }
}
