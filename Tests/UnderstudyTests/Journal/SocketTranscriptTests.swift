import Testing
@testable import Understudy

/// A socket's transcript keeps its newest records within its bound and says how many it let go.
@Suite struct SocketTranscriptTests {
    private func record(_ number: Int) -> SocketTranscript.Record {
        SocketTranscript.Record(direction: number.isMultiple(of: 2) ? .sent : .received, kind: .text, bytes: number,
                                milliseconds: Double(number), closeCode: nil, fault: nil)
    }

    @Test func keepsEverythingUpToItsCapacity() {
        var transcript = SocketTranscript()
        for number in 1...SocketTranscript.capacity { transcript.append(record(number)) }
        #expect(transcript.records.count == SocketTranscript.capacity)
        #expect(transcript.leftOut == 0)
        #expect(transcript.records.first?.bytes == 1)
    }

    @Test func pastItsCapacityTheOldestGoAndAreCounted() {
        var transcript = SocketTranscript()
        let total = SocketTranscript.capacity * 3 + 7
        for number in 1...total { transcript.append(record(number)) }
        #expect(transcript.records.count <= SocketTranscript.capacity)
        #expect(transcript.records.count + transcript.leftOut == total)
        #expect(transcript.records.map(\.bytes) == Array((transcript.leftOut + 1)...total), "the newest, in order")
    }

    @Test func messagesLeaveOutTheCloses() {
        var transcript = SocketTranscript()
        transcript.append(record(1))
        transcript.append(SocketTranscript.Record(direction: .received, kind: .close, bytes: 0, milliseconds: 2,
                                                  closeCode: 1000, fault: nil))
        #expect(transcript.messages == [record(1)])
        #expect(transcript.records.count == 2)
    }
}
