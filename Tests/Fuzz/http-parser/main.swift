// Fuzz target `http-parser`: IMockNet's incremental HTTP/1.1 request parser and the
// response-head parser of the WebSocket client handshake.
//
// Properties (a violation traps):
// - Feeding the input whole and cut at split points derived from the input gives the same
//   events (`.needMore` and `.expectContinue` aside: they depend on where the bytes stop).
// - Nothing after the first error: the parser stays failed with that error.
// - Every request's body respects the body limit.
// - The response-head parser gives the same head, leftover bytes or error, whole or split.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockNet

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    var choices = InputDerivedChoices(input)
    let limits = HTTPLimits(
        maxHeaderBytes: choices.pick([16 * 1024, 256, 40]), maxBodyBytes: choices.pick([1 << 20, 100, 0]),
        maxHeaderCount: choices.pick([100, 3]))
    let whole = requestEvents([input[...]], limits: limits)
    let pieces = choices.split(input, maximum: choices.pick([1, 3, 16, 256]))
    let split = requestEvents(pieces, limits: limits)
    check(whole == split, "events differ whole and split at \(pieces.map(\.count)): \(whole) vs \(split)")

    let head = responseHead([input[...]])
    let splitHead = responseHead(pieces)
    check(head == splitHead, "response head differs whole and split: \(head) vs \(splitHead)")
    return 0
}

/// The requests and the error of `pieces` fed in order, draining events after each piece.
private func requestEvents(_ pieces: [ArraySlice<UInt8>], limits: HTTPLimits) -> [HTTPParseEvent] {
    var parser = HTTPRequestParser(limits: limits)
    var events: [HTTPParseEvent] = []
    for piece in pieces {
        parser.feed(piece)
        draining: while true {
            let event = parser.next()
            switch event {
            case .needMore:
                break draining
            case .expectContinue:
                continue
            case .request(let request):
                check(request.body.count <= limits.maxBodyBytes, "body of \(request.body.count) bytes over the limit")
                events.append(event)
            case .error:
                events.append(event)
                check(parser.next() == event, "a failed parser changed its error")
                _ = parser.takeBufferedBytes()
                return events
            }
        }
    }
    _ = parser.isIdle
    _ = parser.hasPartialHead
    _ = parser.takeBufferedBytes()
    return events
}

/// What the response-head parser makes of `pieces`: the head and every byte after it, or the error.
private func responseHead(_ pieces: [ArraySlice<UInt8>]) -> ResponseHeadOutcome {
    var parser = HTTPResponseHeadParser(maxHeadSize: 512)
    for (index, piece) in pieces.enumerated() {
        do {
            guard let (head, leftover) = try parser.feed(piece) else { continue }
            return .head(head, leftover + pieces[(index + 1)...].joined())
        } catch {
            return .error(error)
        }
    }
    return .incomplete
}

/// How feeding a response head ended.
private enum ResponseHeadOutcome: Equatable {
    case head(HTTPResponseHead, [UInt8])
    case error(HTTPResponseHeadParser.ParseError)
    case incomplete
}
