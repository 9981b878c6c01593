/// The chat messages written to one connection whose dialect has no ack for live pushes
/// (imock JSON, OpenIM), each with the offset in the outgoing byte stream just past the frame
/// that carried it. When the peer's TCP has acknowledged the stream up to an offset, the
/// messages before it reached the device (``SessionEngine/delivered(_:messageIDs:)``); those
/// after it are what a close puts back in the queue. A reference, held by the connection's hub
/// state from its first message written (loop-confined).
final class TransportLedger {
    private var ids: [String] = []
    private var ends: [UInt64] = []
    private var head = 0

    /// How many written messages wait for the peer's acknowledgement.
    var count: Int { ids.count - head }

    var isEmpty: Bool { head == ids.count }

    /// Message `id` was written; its frame ends at stream offset `end` (not below the last).
    func wrote(_ id: String, endingAt end: UInt64) {
        ids.append(id)
        ends.append(end)
    }

    /// The messages whose frames end at or before `offset`, oldest first; they leave the ledger.
    func acknowledged(through offset: UInt64) -> [String] {
        let start = head
        while head < ids.count, ends[head] <= offset { head += 1 }
        let taken = Array(ids[start..<head])
        if head == ids.count {
            ids.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= ids.count {
            ids.removeFirst(head)
            ends.removeFirst(head)
            head = 0
        }
        return taken
    }
}
