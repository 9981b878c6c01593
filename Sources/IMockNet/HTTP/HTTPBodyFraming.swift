/// How the length of a request body is determined (RFC 9112 §6.3).
enum HTTPBodyFraming: Equatable {
    /// No Content-Length and no Transfer-Encoding, or `Content-Length: 0`.
    case empty
    /// `Content-Length: n` with n > 0.
    case fixed(length: Int)
    /// `Transfer-Encoding: chunked`.
    case chunked

    /// Reads the framing from the headers, rejecting ambiguous or unsupported framing
    /// and a declared length over `maxBodyBytes` before any of the body arrives.
    static func from(_ headers: HTTPHeaders, maxBodyBytes: Int) -> Result<HTTPBodyFraming, HTTPParseError> {
        let contentLengths = headers.values(for: "Content-Length")
        if !headers.values(for: "Transfer-Encoding").isEmpty {
            guard contentLengths.isEmpty else { return .failure(.contentLengthWithTransferEncoding) }
            guard headers.tokens(for: "Transfer-Encoding") == ["chunked"] else {
                return .failure(.unsupportedTransferEncoding)
            }
            return .success(.chunked)
        }
        guard !contentLengths.isEmpty else { return .success(.empty) }
        // RFC 9110 §8.6 lets a recipient accept a list of identical values such as `42, 42`.
        var lengths: [Int] = []
        for field in contentLengths {
            for element in field.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard let length = parseDecimal(element) else { return .failure(.invalidContentLength) }
                lengths.append(length)
            }
        }
        guard let length = lengths.first, lengths.allSatisfy({ $0 == length }) else {
            return .failure(.conflictingContentLengths)
        }
        guard length <= maxBodyBytes else { return .failure(.bodyTooLarge) }
        return .success(length == 0 ? .empty : .fixed(length: length))
    }

    /// A non-empty run of decimal digits (surrounding optional whitespace allowed), nil on overflow.
    static func parseDecimal(_ bytes: some Collection<UInt8>) -> Int? {
        var digits = Array(bytes)[...]
        while let byte = digits.first, HTTPSyntax.isWhitespace(byte) { digits.removeFirst() }
        while let byte = digits.last, HTTPSyntax.isWhitespace(byte) { digits.removeLast() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard let digit = HTTPSyntax.digitValue(byte) else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
