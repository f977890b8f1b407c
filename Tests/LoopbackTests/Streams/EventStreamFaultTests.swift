import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Stream faults at their edges: a stall before any event, a stall while bytes are dripped, and `chunk=1`
/// splitting multi-byte UTF-8.
@Suite(.blocksThreads) struct EventStreamFaultTests {
    private let streams = EventStreamTests()

    @Test func stallAfterZeroStallsRightAfterTheRetryField() async throws {
        try await withServer { server, _ in
            let stalled = try streams.open(server, "interval=10&count=3&heartbeat=20", headers: ["X-Understudy-Fault": "stall-after=0"],
                                           timeout: 1)
            #expect(stalled.head.hasPrefix("HTTP/1.1 200 OK"))
            #expect(stalled.body == "retry: 3000\n\n")
            #expect(stalled.ending == .timedOut)
        }
    }

    @Test func aStallLetsTheDrippedEventFinishFirst() async throws {
        try await withServer { server, _ in
            let stalled = try streams.open(server, "interval=10&count=3&heartbeat=0",
                                           headers: ["X-Understudy-Fault": "stall-after=1; chunk=1"], timeout: 1)
            #expect(stalled.ids == [1])
            #expect(stalled.body.hasSuffix("}\n\n"))
            #expect(stalled.chunkSizes.allSatisfy { $0 == 1 })
            #expect(stalled.ending == .timedOut)
        }
    }

    @Test func chunkOneSplitsMultiByteCharacters() async throws {
        try await withServer { server, _ in
            let bytes = try streams.open(server, "interval=10&count=2&heartbeat=0", headers: ["X-Understudy-Fault": "chunk=1"])
            #expect(bytes.ids == [1, 2])
            #expect(bytes.chunkSizes.allSatisfy { $0 == 1 })
            // Every data line has a note with an em dash: three bytes, so three one-byte chunks.
            #expect(bytes.dataLines.allSatisfy { $0.contains("—") })
            #expect(bytes.body.utf8.contains(0xE2))
            for data in bytes.dataLines {
                #expect(try !JSONDecoder().decode(ProductUpdateEvent.self, from: Data(data.utf8)).note.isEmpty)
            }
        }
    }

    @Test func payloadsAreTheSameForTheSameSeed() async throws {
        func dataLines(seed: UInt64) async throws -> [String] {
            try await withServer({ $0.seed = seed }) { server, _ in
                try streams.open(server, "interval=10&count=3&heartbeat=0").dataLines
            }
        }
        let first = try await dataLines(seed: 11)
        #expect(first.count == 3)
        #expect(try await dataLines(seed: 11) == first)
        #expect(try await dataLines(seed: 12) != first)
    }
}
