/// Which end of a WebSocket connection this endpoint is. It decides masking:
/// a client masks every frame it sends, a server never does (RFC 6455 §5.1).
public enum WebSocketRole: Sendable, Hashable {
    /// The accepting end; receives masked frames, sends unmasked ones.
    case server
    /// The connecting end; receives unmasked frames, sends masked ones.
    case client
}
