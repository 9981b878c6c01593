// Fuzz target `imock-frame`: the frames of the imock JSON dialect, both directions: the
// server's `ClientFrameParser` and the reference client's `ServerFrameParser`.
//
// The modules are imported whole (IMockCore, IMockWire, IMockClient) so this target keeps
// building while the dialect moves between them; it uses only their public parsers and the
// frames' `text`.
//
// Properties (a violation traps):
// - A client frame that parses is written back (`text`) as a frame that parses to it again.
// - A server frame that parses is written back as a frame that parses to it again.
// - `bestEffortRequestID` finds the id of every frame that parses with one.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockClient
import IMockCore
import IMockWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIMockFrame(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // A WebSocket text message is valid UTF-8; repair anything else as the String would.
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let bestEffortID = ClientFrameParser.bestEffortRequestID(text)
    if let frame = try? ClientFrameParser.parse(text) {
        if let id = frame.requestID { check(bestEffortID == id, "bestEffortRequestID \(String(describing: bestEffortID)), frame id \(id)") }
        let again = Result { () throws(FrameError) in try ClientFrameParser.parse(frame.text) }
        check(again == .success(frame), "client frame \(frame) written as \(frame.text) reads back as \(again)")
    }
    if let frame = try? ServerFrameParser.parse(text) {
        let again = Result { () throws(FrameError) in try ServerFrameParser.parse(frame.text) }
        check(again == .success(frame), "server frame \(frame) written as \(frame.text) reads back as \(again)")
    }
    return 0
}
