import Foundation
import Testing

/// The fuzz seed corpus in `Tests/Fuzz/protobuf/corpus` is the frames of ``FuzzSeeds``, byte
/// for byte, so it follows the encoder (write the files again from ``FuzzSeeds`` when a frame
/// changes on purpose).
@Suite("Protobuf fuzz seed corpus")
struct FuzzSeedTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/protobuf/corpus").standardized

    @Test func everySeedFileIsTheFrameItNames() throws {
        for seed in FuzzSeeds.all {
            let path = Self.corpus.appendingPathComponent(seed.name + ".bin").path
            let contents = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
            #expect([UInt8](contents) == seed.bytes, "\(seed.name)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".bin") }
        #expect(files.sorted() == FuzzSeeds.all.map { $0.name + ".bin" }.sorted())
    }
}
