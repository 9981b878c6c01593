@testable import IMockNet

/// Bytes of an ASCII/UTF-8 string, for writing wire data in tests.
func wireBytes(_ string: String) -> [UInt8] { Array(string.utf8) }

/// Feeds `input` (all at once, or one byte per `feed`) and collects every event but `.needMore`,
/// stopping after the first error.
func httpEvents(_ input: [UInt8], limits: HTTPLimits = HTTPLimits(), byteByByte: Bool = false) -> [HTTPParseEvent] {
    var parser = HTTPRequestParser(limits: limits)
    var events: [HTTPParseEvent] = []
    let pieces: [[UInt8]] = byteByByte ? input.map { [$0] } : [input]
    for piece in pieces {
        parser.feed(piece)
        while true {
            let event = parser.next()
            if event == .needMore { break }
            events.append(event)
            if case .error = event { return events }
        }
    }
    return events
}

/// Parses `input` fed at once and returns the only event, which must be an error.
func httpParseError(_ input: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseError? {
    let events = httpEvents(wireBytes(input), limits: limits)
    guard events.count == 1, case .error(let error) = events[0] else { return nil }
    return error
}
