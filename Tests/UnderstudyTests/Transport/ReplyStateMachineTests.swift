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
