import Foundation

/// The `{"message": "…"}` body DummyJSON (and Understudy) send with every JSON error.
struct ServerMessage: Decodable, Sendable {
    let message: String

    /// The message in `body`, or nil when the body is not a JSON object with a string `message`.
    static func extract(from body: Data?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        return (try? JSONDecoder().decode(ServerMessage.self, from: body))?.message
    }
}
