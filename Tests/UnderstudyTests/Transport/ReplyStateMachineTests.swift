import Testing
@testable import Understudy

@Suite struct ReplyStateMachineTests {
    @Test func endingAWritingReplySendsItsEndOnce() {
        var machine = ReplyStateMachine()
        #expect(machine.canWrite)
        #expect(machine.end() == .endReplyAndRecord)
        #expect(!machine.canWrite)
        #expect(machine.end() == .nothing)
        #expect(machine.close(reset: false) == .nothing)
        #expect(machine.connectionClosed(requestDetached: true) == .nothing)
    }

    @Test func closingOnPurposeLeavesTheRequestToEvhttp() {
        var machine = ReplyStateMachine()
        #expect(machine.close(reset: true) == .freeConnection(reset: true))
        #expect(!machine.canWrite)
        #expect(machine.close(reset: false) == .nothing)
        // evhttp frees the request with the connection: the close callback only journals.
        #expect(machine.connectionClosed(requestDetached: true) == .record)
        #expect(machine.state == .done)
        #expect(machine.end() == .nothing)
    }

    @Test func aClientThatLeavesHandsBackADetachedRequest() {
        var detached = ReplyStateMachine()
        #expect(detached.connectionClosed(requestDetached: true) == .freeRequestAndRecord)
        var attached = ReplyStateMachine()
        #expect(attached.connectionClosed(requestDetached: false) == .record)
        #expect(attached.connectionClosed(requestDetached: false) == .nothing)
    }
}

/// A delivery's turns never overlap: a wake during a turn becomes one more turn straight after it.
@Suite struct DeliveryTurnsTests {
    @Test func aWakeDuringATurnRunsOneMoreAfterIt() {
        var turns = ReplyStateMachine.Turns()
        let answers = [turns.begin(), turns.begin(), turns.begin(), turns.end(), turns.end(), turns.begin()]
        #expect(answers == [true, false, false, true, false, true])
    }

    /// A delivery woken after its last step (a proxied body still arriving while the writer flushes before a close)
    /// gets no more turns: one would have undone the flush's wait, and the connection stayed open until it idled out.
    @Test func noTurnFollowsAFinalStep() {
        var turns = ReplyStateMachine.Turns()
        let first = turns.begin()
        let wakeDuringTheTurn = turns.begin()  // the turn takes the final step; a wake comes meanwhile
        turns.deliveryEnded()
        let another = turns.end()
        let later = turns.begin()
        #expect([first, wakeDuringTheTurn, another, later] == [true, false, false, false])
    }
}
