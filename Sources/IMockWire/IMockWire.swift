/// The wire layer: the codecs (protobuf, gob, gzip, SockJS framing) and the dialects that turn
/// one vendor's wire messages into the session engine's commands and its outputs back into
/// wire messages. Depends on the pure domain (`IMockCore`); knows nothing of sockets.
public enum IMockWire {}
