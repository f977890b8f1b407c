import Foundation
import UnderstudyJSON
import UnderstudyLocking

/// The collections a document implies, kept per session: a path with POST or GET (`/pets`) beside a path one
/// parameter deeper (`/pets/{petId}`). POST stores what was sent with the fields the server sets (an id of the
/// schema's type, times, the response's other read-only fields); GET returns what is stored (an id never seen is
/// answered from the document, and kept); PUT and PATCH change it; DELETE makes it 404 where the operation documents
/// a 404; the list shows it all, after the items the document's own list answer holds. Nothing is shared between
/// sessions.
final class MockState: Sendable {
    enum Role: Sendable { case list, create, read, replace, update, delete }

    /// One inferred collection: its operations and the path parameter that names an item.
    struct Collection: Sendable {
        var list: Int?
        var create: Int?
        var read: Int?
        var parameter: String
    }

    let document: OpenAPIDocument
    /// Each operation's collection (by its path) and role.
    private let roles: [Int: (collection: String, role: Role)]
    private let collections: [String: Collection]
    private let stores = Locked<[String: Store]>([:])
    /// Checks what the state answers against the response's schema.
    private let validator: SchemaValidator
    static let maximumSessions = 256

    /// What one session wrote.
    struct Store {
        /// Items by collection, in order, each with its id's text.
        var items: [String: [(id: String, value: JSONValue)]] = [:]
        var deleted: [String: Set<String>] = [:]
        /// Collections whose document list was taken in already.
        var seeded: Set<String> = []
    }

    init(document: OpenAPIDocument, enabled: Bool) {
        self.document = document
        var validator = SchemaValidator(graph: document.graph)
        validator.side = .response
        // As the generator's: an id kept in the state that breaks its format (`uuid`) is not answered.
        validator.assertsFormats = true
        self.validator = validator
        var roles: [Int: (String, Role)] = [:]
        var collections: [String: Collection] = [:]
        guard enabled else {
            self.roles = [:]
            self.collections = [:]
            return
        }
        let byPath = Dictionary(grouping: document.operations.indices, by: { document.operations[$0].path })
        for (path, indices) in byPath {
            // `/pets/{petId}`: an item path, whose collection is `/pets`.
            guard let last = path.split(separator: "/").last, last.hasPrefix("{"), last.hasSuffix("}"),
                  let slash = path.lastIndex(of: "/") else { continue }
            let collectionPath = slash == path.startIndex ? "/" : String(path[..<slash])
            guard let siblings = byPath[collectionPath] else { continue }
            var collection = Collection(parameter: String(last.dropFirst().dropLast()))
            for index in siblings where document.operations[index].stateful {
                switch document.operations[index].method {
                case "GET": collection.list = index; roles[index] = (collectionPath, .list)
                case "POST": collection.create = index; roles[index] = (collectionPath, .create)
                default: break
                }
            }
            for index in indices where document.operations[index].stateful {
                let role: Role? = switch document.operations[index].method {
                case "GET": .read
                case "PUT": .replace
                case "PATCH": .update
                case "DELETE": .delete
                default: nil
                }
                if let role {
                    roles[index] = (collectionPath, role)
                    if role == .read { collection.read = index }
                }
            }
            collections[collectionPath] = collection
        }
        self.roles = roles
        self.collections = collections
    }

    /// Whether the operation at `index` belongs to an inferred collection (its answers depend on what was written).
    func covers(_ index: Int) -> Bool {
        roles[index] != nil
    }

    /// Forgets a session's state (nil: every session's).
    func reset(session: String?) {
        stores.withLock { stores in
            if let session { stores[session] = nil } else { stores.removeAll() }
        }
    }

    /// The answer from the state, when `operation` belongs to an inferred collection; nil when it does not (the
    /// document answers).
    func answer(_ request: MockRequest, _ operation: OpenAPIOperation, parameters: [String: String], body: JSONValue?,
                session: String?, builder: ResponseBuilder) -> MockResponse? {
        guard let index = document.operations.firstIndex(where: { $0.id == operation.id }),
              let (path, role) = roles[index], let collection = collections[path] else { return nil }
        let key = session ?? ""
        let itemID = parameters[collection.parameter]
        return stores.withLock { stores -> MockResponse? in
            if stores[key] == nil, stores.count >= MockState.maximumSessions { stores.removeAll() }
            var store = stores[key] ?? Store()
            defer { stores[key] = store }
            seed(&store, path, collection, builder: builder)
            var items = store.items[path] ?? []
            var deleted = store.deleted[path] ?? []
            defer {
                store.items[path] = items
                store.deleted[path] = deleted
            }
            switch role {
            case .list:
                return list(items.map(\.value), builder: builder)
            case .create:
                guard case .object(let body)? = body else { return nil }
                let sent = withoutWriteOnly(body, answering: builder.operation)
                let item = created(sent, idField: idField(collection) ?? "id", existing: items, builder: builder)
                items.append((Self.idText(item.id), item.value))
                deleted.remove(Self.idText(item.id))
                return shaped(item.value, builder: builder)
            case .read, .replace, .update, .delete:
                guard let itemID else { return nil }
                if deleted.contains(itemID) {
                    if builder.operation.response(forStatus: 404) != nil { return gone(builder) }
                    // The operation documents no 404: the state never makes the mock answer a status its document
                    // lacks (a client generated from it has no case for one), so the id reads as one never seen.
                    deleted.remove(itemID)
                }
                let position = items.firstIndex { $0.id == itemID }
                switch role {
                case .read:
                    if let position { return shaped(items[position].value, builder: builder) }
                    // An id never seen is answered as the document answers it, with its id, and kept from now on.
                    guard let made = documentItem(collection, id: itemID, context: builder.context) else { return nil }
                    items.append((itemID, made))
                    return shaped(made, builder: builder)
                case .delete:
                    if let position { items.remove(at: position) }
                    deleted.insert(itemID)
                    return nil
                default:
                    guard case .object(let body)? = body else { return nil }
                    let sent = withoutWriteOnly(body, answering: builder.operation)
                    let base = position.map { items[$0].value } ?? documentItem(collection, id: itemID, context: builder.context)
                        ?? .object(JSONObject())
                    let changed = role == .update ? merged(base, sent) : replaced(base, sent, idField: idField(collection))
                    if let position { items[position].value = changed } else { items.append((itemID, changed)) }
                    return shaped(changed, builder: builder)
                }
            }
        }
    }

    /// Takes the document's own list answer in as the collection's first items, once.
    private func seed(_ store: inout Store, _ path: String, _ collection: Collection, builder: ResponseBuilder) {
        guard !store.seeded.contains(path) else { return }
        store.seeded.insert(path)
        guard let list = collection.list else { return }
        let listBuilder = ResponseBuilder(document: document, operation: document.operations[list], request: builder.request,
                                          context: builder.context)
        guard let value = json(listBuilder.response(code: nil, example: nil)), let found = Self.listItems(value) else { return }
        let field = idField(collection)
        var items: [(String, JSONValue)] = []
        for item in found {
            guard let field, let id = item[field], Self.idText(id) != "", !items.contains(where: { $0.0 == Self.idText(id) }) else { continue }
            items.append((Self.idText(id), item))
        }
        store.items[path] = items
    }

    /// The id property of a collection's items: the path parameter's name when the item has it, else `id`.
    private func idField(_ collection: Collection) -> String? {
        guard let read = collection.read ?? collection.create,
              let item = itemSchemaProperties(document.operations[read]) else { return "id" }
        if item.contains(collection.parameter) { return collection.parameter }
        if item.contains("id") { return "id" }
        return item.first { $0.lowercased().hasSuffix("id") }
    }

    /// The property names of an operation's first 2xx JSON response's object.
    private func itemSchemaProperties(_ operation: OpenAPIOperation) -> [String]? {
        answerView(operation)?.properties.map(\.name)
    }

    /// The object view of an operation's first 2xx JSON response's schema; nil when it has none.
    func answerView(_ operation: OpenAPIOperation) -> ObjectView? {
        guard let response = operation.responses.first(where: { $0.code.hasPrefix("2") }),
              let schema = response.content.first(where: { MediaTypes.isJSON(MediaTypes.essence($0.type)) })?.schema else { return nil }
        var view = ObjectView()
        view.collect(schema, in: document.graph)
        return view
    }

    private func json(_ response: MockResponse) -> JSONValue? {
        guard (200..<300).contains(response.status),
              response.headers.contains(where: { $0.name == "Content-Type" && MediaTypes.isJSON(MediaTypes.essence($0.value)) })
        else { return nil }
        return try? JSONParser.parse(response.body)
    }

    /// The items of a list answer: the array itself, or its first member that is an array of objects.
    static func listItems(_ value: JSONValue) -> [JSONValue]? {
        switch value {
        case .array(let items): return items
        case .object(let object):
            for entry in object.entries {
                if case .array(let items) = entry.value, items.allSatisfy({ if case .object = $0 { true } else { false } }) { return items }
            }
            return nil
        default: return nil
        }
    }

    /// The list answer with `items` where the document's list has its items.
    private func list(_ items: [JSONValue], builder: ResponseBuilder) -> MockResponse? {
        let answer = builder.response(code: nil, example: nil)
        guard let value = json(answer) else { return nil }
        let replaced: JSONValue
        switch value {
        case .array: replaced = .array(items)
        case .object(var object):
            guard let index = object.entries.firstIndex(where: { if case .array = $0.value { true } else { false } }) else { return answer }
            object.entries[index].value = .array(items)
            for counter in ["total", "count", "total_count", "totalCount"] where object[counter]?.doubleValue != nil {
                object[counter] = .number(JSONNumber(items.count))
            }
            replaced = .object(object)
        default: return answer
        }
        guard case .success(let (status, response)) = builder.choose(code: nil) else { return answer }
        return holding(builder.answer(status: status, response: response, example: nil, body: replaced), or: answer, builder)
    }

    /// The answer for one item: the operation's first 2xx with the item as its body (or in the member of its body
    /// that holds one).
    private func shaped(_ item: JSONValue, builder: ResponseBuilder) -> MockResponse? {
        let answer = builder.response(code: nil, example: nil)
        guard let value = json(answer), case .success(let (status, response)) = builder.choose(code: nil) else { return answer }
        // What is kept, over the document's answer: a field this operation's shape needs and the kept item lacks
        // (it came from a list of a slimmer shape) is the document's.
        var body = item
        if case .object(let base) = value, case .object(let kept) = item, base["id"] != nil || base.keys.contains(where: { kept[$0] != nil }) {
            body = merged(.object(base), kept)
        }
        let shapedItem = body
        if case .object(var wrapper) = value, case .object(let itemObject) = shapedItem,
           !itemObject.keys.contains(where: { wrapper[$0] != nil && ["id", "name"].contains($0) }),
           let index = wrapper.entries.firstIndex(where: { if case .object = $0.value { true } else { false } }),
           wrapper.entries.filter({ if case .object = $0.value { true } else { false } }).count == 1 {
            wrapper.entries[index].value = shapedItem
            body = .object(wrapper)
        }
        return holding(builder.answer(status: status, response: response, example: nil, body: body), or: answer, builder)
    }

    /// The state's answer when its body holds to the response's schema; else the document's (a document whose list
    /// and item shapes disagree cannot carry every kept field everywhere).
    private func holding(_ stateful: MockResponse, or documented: MockResponse, _ builder: ResponseBuilder) -> MockResponse {
        guard let value = json(stateful), case .success(let (_, response)) = builder.choose(code: nil),
              let schema = response?.content.first(where: { MediaTypes.isJSON(MediaTypes.essence($0.type)) })?.schema else { return stateful }
        return validator.isValid(value, against: schema) ? stateful : documented
    }

    /// 404 for an item that was deleted, as the operation documents it.
    private func gone(_ builder: ResponseBuilder) -> MockResponse {
        // The operation's 404, its 4XX or its default (which stands for any status), as a forced code would be.
        builder.response(code: 404, example: nil)
    }

    /// A new item: the create answer's body (the fields the server sets) under what was sent, with a new id.
    private func created(_ sent: JSONObject, idField field: String, existing: [(id: String, value: JSONValue)],
                         builder: ResponseBuilder) -> (id: JSONValue, value: JSONValue) {
        var item = json(builder.response(code: nil, example: nil)).flatMap { value -> JSONObject? in
            if case .object(let object) = value { return object }
            return nil
        } ?? JSONObject()
        for entry in sent.entries { item[entry.key] = entry.value }
        let id = newID(like: item[field], schemas: idSchemas(field, of: builder.operation), existing: existing,
                       seed: builder.context.seed)
        item[field] = id
        stamp(&item, now: builder.context.now, created: true)
        return (id, .object(item))
    }

    /// The document's answer for an item it has not kept, with `id` as its id.
    private func documentItem(_ collection: Collection, id: String, context: MockContext) -> JSONValue? {
        guard let read = collection.read else { return nil }
        let request = MockRequest(method: "GET", path: document.operations[read].path)
        let builder = ResponseBuilder(document: document, operation: document.operations[read], request: request, context: context)
        guard let value = json(builder.response(code: nil, example: nil)), case .object(var object) = value else { return nil }
        let field = idField(collection) ?? "id"
        switch object[field] {
        case .number?:
            // An id that is no number cannot be a numeric id's value: nothing is kept, the document answers.
            guard let number = JSONNumber.parsed(id), number.double.isFinite else { return nil }
            object[field] = .number(number)
        case .string?, nil:
            object[field] = .string(id)
        default:
            return nil
        }
        return .object(object)
    }

    private func merged(_ base: JSONValue, _ sent: JSONObject) -> JSONValue {
        guard case .object(var object) = base else { return .object(sent) }
        for entry in sent.entries { object[entry.key] = entry.value }
        return .object(object)
    }

    /// PUT: what was sent, keeping the id and the fields only the server sets that were not sent.
    private func replaced(_ base: JSONValue, _ sent: JSONObject, idField: String?) -> JSONValue {
        guard case .object(let old) = base else { return .object(sent) }
        var object = sent
        if let idField, let id = old[idField] { object[idField] = id }
        return .object(object)
    }

    /// `createdAt`/`updatedAt`-like date-time fields set to now.
    private func stamp(_ item: inout JSONObject, now: Double, created: Bool) {
        let text = Self.iso8601(now)
        for key in item.keys {
            let lower = key.lowercased()
            guard case .string(let value)? = item[key], value.count >= 20, value.contains("T") else { continue }
            if lower.contains("updated") || lower.contains("modified") || (created && (lower.contains("created") || lower.contains("date"))) {
                item[key] = .string(text)
            }
        }
    }

    static func iso8601(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    static func idText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): number.text
        default: ""
        }
    }
}
