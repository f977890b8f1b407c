import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// UnderstudyClient against the baseline every app starts from: `URLSession.data(for:)`, a status check and
/// `JSONDecoder`, both on a session with the same configuration, against one in-process server.
///
/// Rounds alternate which side goes first (A B, B A, …) so the machine's drift falls on both; each side's figure
/// is the median of its rounds, and the ratio is the median of the per-round ratios.
struct ClientOverhead {
    let requests: Int
    let rounds: Int

    func run() async throws -> [String: Any] {
        let server = try UnderstudyServer.start(UnderstudyServer.Configuration())
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("products/1")
        let rawSession = URLSession(configuration: APIClient.Configuration.defaultSessionConfiguration())
        let decoder = JSONDecoder()
        let client = APIClient(configuration: APIClient.Configuration(baseURL: server.baseURL))
        defer { rawSession.invalidateAndCancel() }

        let raw: @Sendable () async throws -> Void = {
            let (data, response) = try await rawSession.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchError(description: "raw: not 200") }
            _ = try decoder.decode(Product.self, from: data)
        }
        let viaClient: @Sendable () async throws -> Void = {
            _ = try await client.send(ProductEndpoints.product(id: 1))
        }
        // Warm both: connections, caches, lazily built metadata.
        _ = try await measure(raw, times: 200)
        _ = try await measure(viaClient, times: 200)

        var rawTimes: [Double] = []
        var clientTimes: [Double] = []
        var ratios: [Double] = []
        for round in 0..<rounds {
            let rawFirst = round % 2 == 0
            let first = try await measure(rawFirst ? raw : viaClient, times: requests)
            let second = try await measure(rawFirst ? viaClient : raw, times: requests)
            let (rawSeconds, clientSeconds) = rawFirst ? (first, second) : (second, first)
            rawTimes.append(rawSeconds)
            clientTimes.append(clientSeconds)
            ratios.append(clientSeconds / rawSeconds)
        }
        return [
            "requests": requests, "rounds": rounds,
            "raw_us_per_request": median(rawTimes) / Double(requests) * 1e6,
            "client_us_per_request": median(clientTimes) / Double(requests) * 1e6,
            "ratio": median(ratios), "ratios": ratios,
        ]
    }

    /// Seconds for `times` sequential calls.
    private func measure(_ call: @Sendable () async throws -> Void, times: Int) async throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<times { try await call() }
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
