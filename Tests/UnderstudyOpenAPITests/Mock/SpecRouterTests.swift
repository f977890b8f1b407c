import Testing
import UnderstudyJSON
@testable import UnderstudyOpenAPI

/// Which operation a path reaches among many templates of many lengths.
@Suite struct SpecRouterTests {
    /// A document with `paths` in this order, each with one GET whose operationId is its path.
    private func router(_ paths: [String]) throws -> (SpecRouter, OpenAPIDocument) {
        let members = paths.map { path in
            JSONObject.Entry(key: path, value: .object(JSONObject([.init(key: "get", value: .object(JSONObject([
                .init(key: "operationId", value: .string(path)),
                .init(key: "responses", value: .object(JSONObject([.init(key: "200", value: .object(JSONObject([
                    .init(key: "description", value: .string("ok"))])))])))])))])))
        }
        let text = #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}"#
        guard case .object(var root) = try JSONParser.parse(text) else { throw RouterTestError() }
        root.entries[2].value = .object(JSONObject(members))
        let document = try DocumentLoader(readers: DocumentReaders()).load(.object(root))
        return (SpecRouter(document), document)
    }

    private struct RouterTestError: Error {}

    /// DigitalOcean's shape: `/v2/droplets/{droplet_id}` written long before `/v2/droplets/autoscale`, with hundreds
    /// of templates of other lengths between.
    @Test func aConcretePathWinsWhereverTheDocumentWritesIt() throws {
        var paths = ["/v2/droplets/{droplet_id}", "/v2/databases/{uuid}/schema-registry/{subject}"]
        for index in 0..<300 {
            let depth = 2 + index % 5
            paths.append("/v2/r\(index)" + (0..<depth).map { $0 % 2 == 0 ? "/{p\($0)}" : "/s\($0)" }.joined())
        }
        paths += ["/v2/droplets/autoscale", "/v2/databases/{uuid}/schema-registry/config"]
        let (router, document) = try router(paths)
        for (path, expected) in [("/v2/droplets/autoscale", "/v2/droplets/autoscale"),
                                 ("/v2/droplets/7", "/v2/droplets/{droplet_id}"),
                                 ("/v2/databases/1/schema-registry/config", "/v2/databases/{uuid}/schema-registry/config"),
                                 ("/v2/databases/1/schema-registry/orders", "/v2/databases/{uuid}/schema-registry/{subject}")] {
            guard case .operation(let index, _) = router.route(method: "GET", path: path) else {
                Issue.record("\(path) found no operation")
                continue
            }
            #expect(document.operations[index].id == expected, "\(path)")
        }
    }

    /// OpenAI's `/responses?beta=true` beside `/responses`: a path key's own query pairs pick the operation.
    @Test func aTemplatesQueryPairsPickItsOperation() throws {
        let (router, document) = try router(["/responses", "/responses?beta=true", "/responses/{id}"])
        func reached(_ path: String, _ query: String?) -> String? {
            guard case .operation(let index, _) = router.route(method: "GET", path: path, query: query) else { return nil }
            return document.operations[index].id
        }
        #expect(reached("/responses", nil) == "/responses")
        #expect(reached("/responses", "limit=2") == "/responses")
        #expect(reached("/responses", "limit=2&beta=true") == "/responses?beta=true")
        #expect(reached("/responses", "beta=false") == "/responses")
        #expect(reached("/responses/r1", "beta=true") == "/responses/{id}")
    }
}
