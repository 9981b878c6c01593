import Testing

@testable import IMockHarness

/// The soak's accounting (docs/SOAK.md § What is counted), event by event: what counts as
/// delivered, redelivered, duplicated, out of order, lost or excused.
@Suite("Soak ledger")
struct SoakLedgerTests {
    /// Users 0 and 1; connection 1 of user 1 is live from time 0.
    func ledger() -> SoakLedger {
        var ledger = SoakLedger()
        ledger.connectionStarted(1, user: 1, atMs: 0)
        return ledger
    }

    @Test func aLiveMessageReceivedOnceIsDelivered() {
        var ledger = ledger()
        ledger.sent(0, to: 1, atMs: 10)
        ledger.received(0, messageID: 7, on: 1, offline: false)
        ledger.accepted(0, messageID: 7, atMs: 12)
        let figures = ledger.finish()
        #expect(figures.sent == 1 && figures.accepted == 1 && figures.deliveredLive == 1)
        #expect(figures.lost == 0 && figures.duplicated == 0 && figures.outOfOrder == 0 && figures.deliveredUnconfirmed == 0)
    }

    @Test func anOfflineMessageMayComeAgainUntilItsAckButNeverAfter() {
        var ledger = SoakLedger()
        ledger.sent(0, to: 1, atMs: 10)
        ledger.accepted(0, messageID: 7, atMs: 12)
        ledger.connectionStarted(1, user: 1, atMs: 20)
        ledger.received(0, messageID: 7, on: 1, offline: true)
        ledger.connectionEnded(1, serverClosed: true, atMs: 25)
        // Not acked: the next login gets it again (at least once).
        ledger.connectionStarted(2, user: 1, atMs: 30)
        ledger.received(0, messageID: 7, on: 2, offline: true)
        // Acked while connection 3 was already logging in: it may still get it.
        ledger.connectionStarted(3, user: 1, atMs: 31)
        ledger.ackConfirmed(0, nextSerial: 4)
        ledger.received(0, messageID: 7, on: 3, offline: true)
        // Connection 4 logged in after the ack: a copy there is a duplicate.
        ledger.connectionStarted(4, user: 1, atMs: 40)
        ledger.received(0, messageID: 7, on: 4, offline: true)
        let figures = ledger.finish()
        #expect(figures.deliveredOffline == 1 && figures.redelivered == 2 && figures.acked == 1)
        #expect(figures.duplicated == 1)
        #expect(figures.examples.contains { $0.contains("after its ack") })
    }

    @Test func aMessageTwiceOnOneConnectionIsADuplicate() {
        var ledger = ledger()
        ledger.sent(0, to: 1, atMs: 10)
        ledger.accepted(0, messageID: 7, atMs: 12)
        ledger.received(0, messageID: 7, on: 1, offline: false)
        ledger.received(0, messageID: 7, on: 1, offline: false)
        #expect(ledger.finish().duplicated == 1)
    }

    @Test func liveThenOfflineIsADuplicateUnlessTheConnectionWasLossy() {
        for lossy in [false, true] {
            var ledger = ledger()
            ledger.connectionStarted(2, user: 1, atMs: 0)
            if lossy { ledger.connectionLossy(1) }
            ledger.sent(0, to: 1, atMs: 10)
            ledger.accepted(0, messageID: 7, atMs: 12)
            ledger.received(0, messageID: 7, on: 1, offline: false)
            ledger.received(0, messageID: 7, on: 2, offline: true)
            let figures = ledger.finish()
            #expect(figures.duplicated == (lossy ? 0 : 1), "lossy: \(lossy)")
            #expect(figures.deliveredLive == 1)
        }
    }

    @Test func aLiveMessageOnEveryDeviceIsFanOut() {
        var ledger = ledger()
        ledger.connectionStarted(2, user: 1, atMs: 0)
        ledger.sent(0, to: 1, atMs: 10)
        ledger.accepted(0, messageID: 7, atMs: 12)
        ledger.received(0, messageID: 7, on: 1, offline: false)
        ledger.received(0, messageID: 7, on: 2, offline: false)
        let figures = ledger.finish()
        #expect(figures.deliveredLive == 1 && figures.fanOut == 1 && figures.duplicated == 0)
    }

    @Test func idsGoDownOnAConnectionIsOutOfOrder() {
        var ledger = ledger()
        for seq in 0..<3 { ledger.sent(seq, to: 1, atMs: 10) }
        ledger.received(0, messageID: 5, on: 1, offline: false)
        ledger.received(2, messageID: 9, on: 1, offline: false)
        ledger.received(1, messageID: 7, on: 1, offline: false)
        let figures = ledger.finish()
        #expect(figures.outOfOrder == 1)
        #expect(figures.deliveredUnconfirmed == 3)
    }

    @Test func anAcceptedMessageNobodyReceivedIsLost() {
        var ledger = ledger()
        ledger.sent(0, to: 1, atMs: 10)
        ledger.accepted(0, messageID: 7, atMs: 12)
        let figures = ledger.finish()
        #expect(figures.lost == 1)
        #expect(figures.examples == ["message 0 (id 7) to user #1, accepted at 12 ms, never arrived"])
    }

    @Test func aLossyConnectionExcusesWhatItMayHaveTakenUntilTheServerLetsItGo() {
        // Connection 1 is dropped by a fault at 20; the server lets it go at 50.
        var ledger = ledger()
        ledger.connectionLossy(1)
        ledger.connectionEnded(1, serverClosed: false, atMs: 20)
        #expect(ledger.unsettledConnections == [1])
        ledger.sent(0, to: 1, atMs: 10)
        ledger.accepted(0, messageID: 7, atMs: 12)
        ledger.sent(1, to: 1, atMs: 40)
        ledger.accepted(1, messageID: 8, atMs: 41)
        ledger.connectionGone(1, atMs: 50)
        #expect(ledger.unsettledConnections == [])
        ledger.sent(2, to: 1, atMs: 60)
        ledger.accepted(2, messageID: 9, atMs: 61)
        // User 0 had no lossy connection.
        ledger.sent(3, to: 0, atMs: 15)
        ledger.accepted(3, messageID: 10, atMs: 16)
        let figures = ledger.finish()
        #expect(figures.excused == 2)
        #expect(figures.lost == 2)
    }

    @Test func aLossyConnectionTheServerClosedExcusesUntilItsClose() {
        var ledger = ledger()
        ledger.connectionLossy(1)
        ledger.connectionEnded(1, serverClosed: true, atMs: 20)
        #expect(ledger.unsettledConnections == [])
        ledger.sent(0, to: 1, atMs: 19)
        ledger.accepted(0, messageID: 7, atMs: 21)
        ledger.sent(1, to: 1, atMs: 30)
        ledger.accepted(1, messageID: 8, atMs: 31)
        let figures = ledger.finish()
        #expect(figures.excused == 1 && figures.lost == 1)
    }

    @Test func unansweredRefusedAndMisdeliveredMessages() {
        var ledger = ledger()
        ledger.sent(0, to: 1, atMs: 10)
        ledger.sent(1, to: 1, atMs: 10)
        ledger.refused(1, code: 4)
        ledger.sent(2, to: 0, atMs: 10)
        ledger.received(2, messageID: 9, on: 1, offline: false)
        ledger.sent(3, to: 1, atMs: 10)
        ledger.accepted(3, messageID: 11, atMs: 12)
        ledger.received(3, messageID: 12, on: 1, offline: false)
        let figures = ledger.finish()
        #expect(figures.unconfirmed == 2)
        #expect(figures.refused == [4: 1])
        #expect(figures.misdelivered == 2)
        #expect(figures.lost == 0)
    }
}
