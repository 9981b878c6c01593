import Testing

@testable import IMockStore

/// Every ``StoreError`` reads as one line: `imock serve` prints it as its one-line refusal.
@Suite struct StoreErrorTests {
    /// One error of each case, its texts broken over lines as SQL statements, SQLite's integrity
    /// findings and nested errors are.
    static let samples: [StoreError] = [
        .directoryUnavailable(path: "/data", reason: "mkdir /data:\n  Permission denied"),
        .inUse(path: "/da\nta"),
        .notAStore(path: "/data/imock.sqlite", reason: "file is not\r\na database\n"),
        .newerSchema(path: "/data\n/imock.sqlite", found: 9, supported: 2),
        .sqlite(code: 11, message: "database disk image is malformed", operation: "running SELECT a,\n    b\nFROM users"),
        .corruptRecord("the stored apps cannot be loaded: \n\n line 2"),
        .invalidChange("a user\u{2028}without a uuid"),
        .integrityCheckFailed(
            path: "/data/imock.sqlite",
            problems: ["*** in database main ***\nPage 4: btreeInitPage() returns error code 11", "Page 16 is never used"]),
        .unavailable("\nclosed"),
    ]

    @Test(arguments: samples)
    func descriptionIsOneLine(_ error: StoreError) {
        let breaks = error.description.filter(\.isNewline)
        #expect(breaks.isEmpty, "\(error.description)")
    }

    @Test func samplesCoverEveryCase() {
        #expect(Set(StoreErrorTests.samples.map(StoreErrorTests.caseName)).count == StoreErrorTests.caseCount)
    }

    @Test func lineBreaksBecomeOneSpace() {
        #expect(
            StoreErrorTests.samples[4].description
                == "SQLite error 11 (database disk image is malformed) while running SELECT a, b FROM users")
        #expect(StoreErrorTests.samples[5].description == "stored data is damaged: the stored apps cannot be loaded: line 2")
        #expect(StoreErrorTests.samples[8].description == "the store is unavailable: closed")
        #expect(
            StoreErrorTests.samples[7].description
                == "/data/imock.sqlite is damaged: *** in database main *** Page 4: btreeInitPage() returns error code 11; "
                + "Page 16 is never used")
        #expect(StoreError.inUse(path: "/a  b").description == "data directory /a  b is in use by another imock process (its lock is held)")
    }

    @Test func integrityFindingsShownAreTheFirstThree() {
        let error = StoreError.integrityCheckFailed(path: "/d/imock.sqlite", problems: (1...5).map { "Page \($0) is never used" })
        #expect(
            error.description
                == "/d/imock.sqlite is damaged: Page 1 is never used; Page 2 is never used; Page 3 is never used (and 2 more problems)")
    }

    /// The number of cases below: a new case does not compile until it is named here, and
    /// then fails ``samplesCoverEveryCase()`` until it has a sample.
    static let caseCount = 9

    static func caseName(_ error: StoreError) -> String {
        switch error {
        case .directoryUnavailable: "directoryUnavailable"
        case .inUse: "inUse"
        case .notAStore: "notAStore"
        case .newerSchema: "newerSchema"
        case .sqlite: "sqlite"
        case .corruptRecord: "corruptRecord"
        case .invalidChange: "invalidChange"
        case .integrityCheckFailed: "integrityCheckFailed"
        case .unavailable: "unavailable"
        }
    }
}
