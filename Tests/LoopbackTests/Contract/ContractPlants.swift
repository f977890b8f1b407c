import Foundation

/// Mismatches planted in a copy of the project's own `openapi/openapi.yaml`, each with a request that meets it
/// and the one violation a proxy holding Understudy's DummyJSON API to that copy must name.
struct ContractPlant: Sendable, CustomStringConvertible {
    let name: String
    /// Edits of the document's text: after the first `anchor` (nil: the start), `old` (its first occurrence
    /// there) becomes `new`.
    let edits: [(anchor: String?, old: String, new: String)]
    let request: String
    let location: [String]
    let pointer: String
    let keyword: String

    var description: String { name }

    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("openapi/openapi.yaml"), encoding: .utf8)) ?? ""
    }()

    /// The document with this plant's edits; nil when an edit found nothing to change (the document moved on).
    var planted: String? {
        var text = ContractPlant.document
        for edit in edits {
            let start = edit.anchor.flatMap { text.range(of: $0)?.upperBound } ?? text.startIndex
            guard let range = text.range(of: edit.old, range: start..<text.endIndex) else { return nil }
            text.replaceSubrange(range, with: edit.new)
        }
        return text
    }

    static let all: [ContractPlant] = [
        ContractPlant(name: "a changed type", edits: [(nil, "    ProductPrice: {type: number,", "    ProductPrice: {type: string,")],
                      request: "/products/1", location: ["response", "body"], pointer: "/price", keyword: "type"),
        ContractPlant(name: "a narrowed enum", edits: [(nil, "enum: [In Stock, Low Stock, Out of Stock]", "enum: [Low Stock, Out of Stock]")],
                      request: "/products/1", location: ["response", "body"], pointer: "/availabilityStatus", keyword: "enum"),
        // Out of both Product and ProductSelection: the reply's anyOf takes either.
        ContractPlant(name: "a removed field", edits: [("\n    Product:\n", "        sku: {$ref: '#/components/schemas/ProductSku'}\n", ""),
                                                       ("\n    ProductSelection:\n", "        sku: {$ref: '#/components/schemas/ProductSku'}\n", "")],
                      request: "/products/2", location: ["response", "body"], pointer: "/sku", keyword: "additionalProperties"),
        ContractPlant(name: "a stricter pattern", edits: [(nil, "ProductSku: {type: string, pattern: '^[A-Z]{3}-", "ProductSku: {type: string, pattern: '^[A-Z]{4}-")],
                      request: "/products/3", location: ["response", "body"], pointer: "/sku", keyword: "pattern"),
        // A 404 left undocumented would read as an operation the upstream lacks, answered from the document: the
        // status taken away is the 200.
        ContractPlant(name: "a missing status", edits: [("\n  /quotes/{id}:\n", """
                                  '200':
                                    description: The item.
                                    headers: *catalogueHeaders
                                    content:
                                      application/json:
                                        schema: {$ref: '#/components/schemas/Quote'}

                          """, "")],
                      request: "/quotes/2", location: ["response", "status"], pointer: "", keyword: "status"),
        ContractPlant(name: "a wrong content type", edits: [("\n  /quotes/{id}:\n", "            application/json:\n              schema: {$ref: '#/components/schemas/Quote'}",
                                                              "            application/xml:\n              schema: {$ref: '#/components/schemas/Quote'}")],
                      request: "/quotes/1", location: ["response", "header", "Content-Type"], pointer: "", keyword: "content-type"),
        ContractPlant(name: "a newly required field", edits: [("\n    Todo:\n", "      required: [id]", "      required: [id, dueDate]")],
                      request: "/todos/1", location: ["response", "body"], pointer: "", keyword: "required"),
        ContractPlant(name: "a stricter query parameter", edits: [("Send a plain non-negative integer.\n      schema:\n", "        type: string\n",
                                                                    "        type: string\n        maxLength: 1\n")],
                      request: "/products?limit=12", location: ["request", "query", "limit"], pointer: "", keyword: "maxLength"),
        // Three segments: the document's own /{collection}/{id} takes any path of two.
        ContractPlant(name: "an undocumented path", edits: [(nil, "\n  /http/{code}/{message}:\n", "\n  /http-status/{code}/{message}:\n")],
                      request: "/http/200/hello", location: ["request", "path"], pointer: "", keyword: "operation"),
        ContractPlant(name: "a narrower range", edits: [("\n    Cart:\n", "        total: {type: number}", "        total: {type: number, maximum: 1}")],
                      request: "/carts/1", location: ["response", "body"], pointer: "/total", keyword: "maximum"),
    ]
}
