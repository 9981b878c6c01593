// Fuzz target `seed`: the seed document (`--seed`, the control API's seed / restore / export).
//
// Properties (a violation traps):
// - A document that parses and loads exports to bytes that parse and load again and export to
//   the very same bytes (export → load → export is byte-identical).
// - The export keeps every app and user of the document and every value it gave
//   (`ExportFidelity.swift`).
// - Loading a document that parses either builds a directory or throws, never traps.
// - Never a trap, never an out-of-bounds access (ASan).
//
// Plain passwords are hashed with 1 PBKDF2 iteration (`DirectorySettings(passwordIterations:)`),
// so a document with many users stays fast.

import IMockCore

private let settings = DirectorySettings(passwordIterations: 1)
private let nowMs: Int64 = 1_700_000_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSeed(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let document = try? SeedDocument.parse(bytes: fuzzBytes(data, size)),
        let directory = try? document.makeDirectory(settings: settings, nowMs: nowMs)
    else { return 0 }
    checkExportKeeps(document, in: SeedDocument.export(directory))
    let exported = SeedDocument.export(directory).encoded()
    let reloaded: Directory
    do {
        reloaded = try SeedDocument.parse(bytes: exported).makeDirectory(settings: settings, nowMs: nowMs + 1)
    } catch {
        check(false, "an export does not load again: \(error)\n\(String(decoding: exported, as: UTF8.self))")
        return 0
    }
    let again = SeedDocument.export(reloaded).encoded()
    check(again == exported, "export → load → export changed the bytes:\n\(String(decoding: exported, as: UTF8.self))\n\(String(decoding: again, as: UTF8.self))")
    return 0
}
