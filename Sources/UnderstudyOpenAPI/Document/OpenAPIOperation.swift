import UnderstudyJSON

/// One operation a document describes: a method on a path template, what it takes and what it answers.
package struct OpenAPIOperation: Sendable {
    /// `operationId`, or `METHOD /path` when it has none.
    package var id: String
    package var method: String
    /// The path template as written (`/pets/{petId}`).
    package var path: String
    package var summary: String?
    package var parameters: [OpenAPIParameter] = []
    package var requestBody: OpenAPIRequestBody?
    /// In the document's order: `200`, `2XX`, `default`…
    package var responses: [OpenAPIResponse] = []
    /// The security requirements that apply (the operation's, else the document's); empty: none.
    package var security: [[(scheme: String, scopes: [String])]] = []
    package var deprecated = false
    /// `x-understudy-state: false` turns the state of this operation's collection off.
    package var stateful = true
    /// Where it is in the document, for messages: the file's URI and the pointer.
    package var location: SchemaLocation

    package init(id: String, method: String, path: String, location: SchemaLocation) {
        self.id = id
        self.method = method
        self.path = path
        self.location = location
    }

    /// The response with status `code`: exact, else its range (`4XX`), else `default`.
    package func response(forStatus code: Int) -> OpenAPIResponse? {
        let text = String(code)
        if let exact = responses.first(where: { $0.code == text }) { return exact }
        if let range = responses.first(where: { $0.code.uppercased() == "\(code / 100)XX" }) { return range }
        return responses.first(where: { $0.code == "default" })
    }
}

/// A parameter: where it goes, how it is written (`style`, `explode`), and its schema.
package struct OpenAPIParameter: Sendable {
    package enum Location: String, Sendable {
        case path, query, header, cookie, querystring
    }

    package var name: String
    package var location: Location
    package var required = false
    package var deprecated = false
    /// `allowEmptyValue`: a query parameter sent with no value (`?pretty=`) is accepted as it is.
    package var allowsEmptyValue = false
    package var schema: Int?
    /// `form`, `simple`, `label`, `matrix`, `spaceDelimited`, `pipeDelimited`, `deepObject`.
    package var style: String
    package var explode: Bool
    /// A parameter given as `content` (one media type, usually JSON) instead of a schema.
    package var contentType: String?
    package var example: JSONValue?

    package init(name: String, location: Location, style: String, explode: Bool) {
        self.name = name
        self.location = location
        self.style = style
        self.explode = explode
    }
}

/// A request body: required or not, and the media types it takes.
package struct OpenAPIRequestBody: Sendable {
    package var required = false
    package var content: [OpenAPIMediaType] = []
}

/// A media type of a body: its schema, and its examples in order (`example` first, named ones after).
package struct OpenAPIMediaType: Sendable {
    /// As the document writes it (`application/json`, `application/*`, `*/*`).
    package var type: String
    package var schema: Int?
    package var examples: [(name: String, value: JSONValue)] = []
    /// 3.2's `itemSchema`: the schema of each item of a sequential media type (an event stream's events).
    package var itemSchema: Int?

    package init(type: String) {
        self.type = type
    }
}

/// A response: its status (`200`, `2XX`, `default`), headers and media types.
package struct OpenAPIResponse: Sendable {
    package var code: String
    package var description = ""
    package var headers: [(name: String, header: OpenAPIHeader)] = []
    package var content: [OpenAPIMediaType] = []

    /// Headers the server writes itself, which a document's `headers` neither makes nor governs: Content-Type
    /// (OpenAPI says a documented one is ignored) and those that frame the message or the connection (OpenAI's
    /// document gives `Transfer-Encoding` a string schema; a generated `Transfer-Encoding: string` leaves a client
    /// unable to find the body's end, and a proxy rewrites them hop by hop).
    static let serverOwnedHeaders: Set<String> = ["content-type", "content-length", "transfer-encoding", "connection",
                                                  "keep-alive", "upgrade", "trailer", "te", "proxy-connection"]

    /// The documented headers a reply's sender sets: all but the server-owned ones.
    var endToEndHeaders: [(name: String, header: OpenAPIHeader)] {
        headers.filter { !Self.serverOwnedHeaders.contains($0.name.lowercased()) }
    }
}

/// A response header.
package struct OpenAPIHeader: Sendable {
    package var required = false
    package var schema: Int?
    package var example: JSONValue?
}

/// A security scheme: what a request must present.
package struct OpenAPISecurityScheme: Sendable {
    package enum Kind: Sendable, Equatable {
        case apiKey(name: String, location: String)
        case http(scheme: String)
        case oauth2
        case openIdConnect
        case mutualTLS
    }

    package var kind: Kind
}
