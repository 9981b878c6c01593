import Foundation
import Testing

@testable import IMockStore

/// Damages a closed store the way a failing disk or a stray write does.
enum PageDamage {
    /// Overwrites with zeros the root page of the table or index `tree` in the database at
    /// `path`, and returns the page's number.
    @discardableResult
    static func zeroRootPage(of tree: String, in path: String) throws -> Int64 {
        let database = try SQLiteDatabase(path: path, readOnly: true)
        let page = try #require(try database.scalarInt64("SELECT rootpage FROM sqlite_schema WHERE name = ?", [.text(tree)]))
        let size = try #require(try database.scalarInt64("PRAGMA page_size"))
        database.close()
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((page - 1) * size))
        try file.write(contentsOf: Data(count: Int(size)))
        try file.close()
        return page
    }
}
