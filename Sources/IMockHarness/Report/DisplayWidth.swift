/// How wide text shows in a monospaced font, in columns: a Chinese, Japanese or Korean character
/// (and a full-width form) takes two, everything else one — so a label cut to fit its lane is
/// cut at the same width whatever its script.
enum DisplayWidth {
    /// The columns `character` takes.
    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first?.value else { return 1 }
        switch scalar {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` when it fits in `limit` columns; else its longest prefix that fits with "…" after it.
    static func truncate(_ text: String, to limit: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = columns(text[index])
            if used + width > limit - 1 {
                let rest = text[index...].reduce(0) { $0 + columns($1) }
                return used + rest <= limit ? text : String(text[..<end]) + "…"
            }
            used += width
            end = text.index(after: index)
        }
        return text
    }
}
