import IMockCore
import IMockWire

/// The imock JSON protocol: one text message per frame, both ways; a request is the
/// ``ClientFrame`` that carries it, a ``ServerFrame`` says one ``ServerInput``
/// (ImockJSONClientWire+Frames.swift).
final class ImockJSONClientWire: ClientWire {
    func upgradeTarget(endpointPath: String) -> String { endpointPath }

    func encode(_ request: SessionCommand) -> ClientWireOutput {
        ClientWireOutput(send: [.text(ClientFrame(request).text)])
    }

    func decode(_ message: WireMessage) -> ClientWireOutput {
        switch message {
        case .text(let text):
            do throws(FrameError) {
                return ClientWireOutput(said: [ServerInput(try ServerFrameParser.parse(text))])
            } catch {
                return .unreadable("\(error)")
            }
        case .binary:
            return .unreadable("\(FrameError.invalidValue(field: "message", reason: "binary; the imock JSON protocol sends text"))")
        }
    }

    /// `kicked` / `login.error` / `token.expired` are followed by close `4000 + code`.
    func sessionEndCode(ofClose code: UInt16?) -> Int? { KickCloseCode.sessionEndCode(of: code) }
}
