import Foundation
import Testing
import Understudy

/// Random picks draw from the server's seed: two fresh servers started with the same seed answer the same picks, in
/// order, and another seed answers others.
@Suite struct RandomPickTests {
    static let targets = ["/todos/random", "/quotes/random", "/todos/random/5", "/quotes/random/3", "/todos/random",
                          "/quotes/random"]

    /// The bodies of `targets` in order, from a fresh server started with `seed`.
    func picks(seed: UInt64, session: String? = nil) async throws -> [String] {
        try await withServer({ $0.seed = seed }) { server, client in
            var headers: [String: String] = [:]
            if let session {
                server.faults.startSession(session)
                headers["X-Understudy-Session"] = session
            }
            var bodies: [String] = []
            for target in RandomPickTests.targets {
                let reply = try await client.send("GET", target, headers: headers)
                #expect(reply.status == 200, "\(target)")
                bodies.append(reply.text)
            }
            return bodies
        }
    }

    @Test func theSameSeedPicksTheSameAndAnotherSeedOthers() async throws {
        let first = try await picks(seed: 42)
        #expect(Set(first).count > 2, "a seed's picks still vary from one request to the next")
        #expect(try await picks(seed: 42) == first)
        #expect(try await picks(seed: 43) != first)
    }

    @Test func aSessionPicksFromItsOwnSeed() async throws {
        let first = try await picks(seed: 42, session: "picker")
        #expect(try await picks(seed: 42, session: "picker") == first)
        #expect(try await picks(seed: 42) != first)
    }
}
