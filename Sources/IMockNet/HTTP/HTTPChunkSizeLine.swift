import IMockCommon

extension HTTPSyntax {
    /// Parses a chunk-size line (without its CRLF): hexadecimal digits, then optional
    /// chunk extensions (`;name=value`, RFC 9112 §7.1.1) that are ignored.
    /// Nil when there are no digits, the size overflows `Int`, or what follows is not an extension.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var size = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = HexDigit.value(line[index]) {
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow else { return nil }
            size = shifted | Int(digit)
            index += 1
        }
        guard index > line.startIndex else { return nil }
        var rest = line[index...]
        while let byte = rest.first, isWhitespace(byte) { rest.removeFirst() }
        if rest.isEmpty { return size }
        guard rest.first == UInt8(ascii: ";"), rest.allSatisfy(isFieldValueCharacter) else { return nil }
        return size
    }
}
