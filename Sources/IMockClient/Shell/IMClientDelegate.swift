/// Receives the client's callbacks, on the queue it was registered with (C4).
///
/// Each callback comes as the vendor-neutral event and its rendering in the profile's
/// vocabulary (``EmittedCallback/records``); a delegate picks what it needs.
public protocol IMClientDelegate: AnyObject, Sendable {
    /// One callback of the client, in the order the client emitted it.
    func imClient(didEmit callback: EmittedCallback)
}
