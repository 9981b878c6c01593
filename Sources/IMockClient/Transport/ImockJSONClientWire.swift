import IMockWire

/// The imock JSON protocol: one text message per frame, both ways.
final class ImockJSONClientWire: ClientWire {
    func upgradeTarget(endpointPath: String) -> String { endpointPath }

    func encode(_ frame: ClientFrame) -> ClientWireOutput {
        ClientWireOutput(send: [.text(frame.text)])
    }

    func decode(_ message: WireMessage) -> ClientWireOutput {
        switch message {
        case .text(let text):
            do throws(FrameError) {
                return ClientWireOutput(frames: [.success(try ServerFrameParser.parse(text))])
            } catch {
                return ClientWireOutput(frames: [.failure(error)])
            }
        case .binary:
            return ClientWireOutput(frames: [.failure(.invalidValue(field: "message", reason: "binary; the imock JSON protocol sends text"))])
        }
    }
}
