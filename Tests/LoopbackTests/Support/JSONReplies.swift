// Reply bodies every route shares, decoded with `JSONDecoder` rather than cast from `[String: Any]`.

/// Any JSON document at all: decoding it succeeds exactly when the bytes are JSON.
struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {
        // JSONDecoder has parsed the whole document before it calls this; nothing is left to check.
    }
}

/// The keys of a JSON object, for tests that a field is present or left out.
struct JSONKeys: Decodable {
    let keys: Set<String>

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        keys = Set(try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue))
    }
}

/// An error (or `message`-only) reply.
struct MessageReply: Decodable {
    let message: String
}

/// `POST /auth/login` and `POST /auth/refresh`.
struct TokenPairReply: Decodable {
    let accessToken: String
    let refreshToken: String
}

/// A product, or the fields a `select` kept of one (`id` always).
struct ProductReply: Decodable {
    let id: Int
    let title: String?
    let price: Double?
}

/// A page of products: `/products`, its search and its categories.
struct ProductPageReply<Product: Decodable>: Decodable {
    let products: [Product]
    let total: Int
    let skip: Int
    let limit: Int
}

/// `DELETE /products/ID`: the product, marked deleted.
struct DeletedProductReply: Decodable {
    let id: Int
    let isDeleted: Bool
    let deletedOn: String
}

/// `/auth/me`: the signed-in user.
struct UserReply: Decodable {
    struct Address: Decodable {
        let address: String
        let city: String
    }

    let id: Int
    let username: String
    let address: Address
}

/// An `application/problem+json` reply (the `/http/STATUS` routes).
struct ProblemReply: Decodable {
    let status: Int
    let detail: String
}

/// The data of one `product-update` event on `/products/stream`.
struct ProductUpdateEvent: Decodable {
    let id: Int
    let price: Double
    let stock: Int
    let updatedAt: String
    let note: String
}
