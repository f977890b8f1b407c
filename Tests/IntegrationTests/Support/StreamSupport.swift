import Foundation
import Testing
import UnderstudyClient
import UnderstudyDummyJSON

/// `GET /products/stream` with the given query parameters.
func productStream(_ parameters: KeyValuePairs<String, Int>) -> Endpoint<EmptyResponse> {
    Endpoint(path: "products/stream", queryItems: parameters.map { URLQueryItem(name: $0.key, value: String($0.value)) })
}

/// One event as the test received it, with when it arrived.
struct ReceivedEvent: Sendable {
    let event: ServerSentEvent
    let at: ContinuousClock.Instant
}

/// The fields of a `product-update` event's data.
struct ProductUpdateEvent: Decodable, Equatable {
    let id: Int
    let price: Double
    let stock: Int
    let updatedAt: String
}

/// Reads events until `count` have arrived or the sequence ends, then leaves the loop (closing the connection).
func collect(_ source: EventSource, count: Int) async throws -> [ReceivedEvent] {
    var received: [ReceivedEvent] = []
    guard count > 0 else { return received }
    for try await event in source {
        received.append(ReceivedEvent(event: event, at: .now))
        if received.count == count { break }
    }
    return received
}

/// The event ids, as numbers (0 where an id is not one).
func ids(_ events: [ReceivedEvent]) -> [Int] {
    events.map { Int($0.event.id) ?? 0 }
}
