// Fuzz target `json`: IMockCore's strict JSON parser, its encoder and the object reader every
// REST body, control call, frame and seed document goes through.
//
// Properties (a violation traps):
// - What parses encodes to bytes that parse to an equal value, and encoding that value gives
//   the same bytes again (the encoding is canonical).
// - No object holds a key twice (the parser refuses repeated keys).
// - Every `JSONObjectReader` getter, on every member of every object (and on a missing key),
//   with `null` as absent and as a value, returns or throws but never traps; the integer
//   getters never return a number outside the range asked for.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    guard let value = try? JSONValue.parse(input) else { return 0 }
    let encoded = value.encoded()
    let reparsed: JSONValue
    do {
        reparsed = try JSONValue.parse(encoded)
    } catch {
        check(false, "the encoding \(String(decoding: encoded, as: UTF8.self)) does not parse: \(error)")
        return 0
    }
    check(reparsed == value, "the encoding parses to another value")
    check(reparsed.encoded() == encoded, "the encoding is not stable")
    readEveryMember(of: value)
    return 0
}

/// Calls every reader getter on every member of every object inside `value`.
private func readEveryMember(of value: JSONValue) {
    switch value {
    case .array(let elements):
        elements.forEach(readEveryMember)
    case .object(let members):
        check(Set(members.map(\.key)).count == members.count, "an object holds a key twice")
        for nullIsAbsent in [true, false] {
            guard let reader = try? JSONObjectReader(value, path: "fuzz", nullIsAbsent: nullIsAbsent) else {
                check(false, "an object is refused by the reader")
                return
            }
            for key in reader.keys + ["absent"] { readMember(key, of: reader) }
            _ = try? reader.allowOnly(reader.keys.dropLast())
        }
        members.forEach { readEveryMember(of: $0.value) }
    default:
        break
    }
}

/// Integer ranges the fields of imock ask for, the edges included.
private let intRanges: [ClosedRange<Int64>] = [Int64.min...Int64.max, 0...Int64(Int32.max), -1...1, Int64.max...Int64.max]

private func readMember(_ key: String, of reader: JSONObjectReader) {
    _ = reader.value(key)
    _ = try? reader.string(key)
    _ = try? reader.requiredString(key)
    _ = try? reader.nullableString(key)
    for range in intRanges {
        for number in [try? reader.int(key, in: range), try? reader.requiredInt(key, in: range), try? reader.nullableInt(key, in: range)] {
            if let number = number.flatMap({ $0 }) { check(range.contains(number), "an integer outside \(range)") }
        }
    }
    _ = try? reader.number(key, in: -1e308...1e308)
    _ = try? reader.number(key, in: 0...0)
    _ = try? reader.bool(key)
    _ = try? reader.array(key)
    _ = try? reader.requiredArray(key)
    _ = try? reader.strings(key)
    _ = try? reader.object(key)
    _ = try? reader.requiredObject(key)
    _ = try? reader.objects(key)
    _ = reader.wrongType(key, "a thing").phrase
    _ = reader.invalid(key, "why").phrase
}
