import Foundation
import UnderstudyLocking
import UnderstudyJSON

/// The data Understudy serves: products, their categories and the users that can log in. Immutable once loaded,
/// so every server in a process can share one.
public final class Catalog: Sendable {
    /// The products, a collection like every other resource; what sets them apart (their categories, the fields
    /// their writes take) is what their routes give the collection engine (`Router+Products`).
    let products: RecordCollection
    /// The users that log in (and `/users`). The built-in ones are parsed the first time a route asks: they are
    /// the larger half of the embedded data, and start-up then parses only the products, as it did with 40 users.
    var users: UserDirectory {
        userStore.withLock { stored in
            if let stored { return stored }
            let loaded = userLoader?() ?? UserDirectory(users: [])
            stored = loaded
            return loaded
        }
    }
    private let userStore: Locked<UserDirectory?>
    private let userLoader: (@Sendable () -> UserDirectory)?
    /// Your own collections (`--fixtures DIR/<name>.json`), by name; served before a built-in resource of that name.
    let collections: [String: RecordCollection]
    /// DummyJSON's other resources, each parsed from the embedded data the first time a route asks for it.
    let builtIns = Locked<[String: RecordCollection]>([:])

    /// The number of products.
    public var productCount: Int { products.count }
    /// The number of users.
    public var userCount: Int { users.users.count }

    convenience init(products: [PreparedRecord], users: UserDirectory, collections: [String: RecordCollection] = [:]) {
        self.init(products: RecordCollection(name: "products", records: products, searchFields: Catalog.searchFields["products"]),
                  userStore: Locked(users), userLoader: nil, collections: collections)
    }

    private init(products: RecordCollection, userStore: Locked<UserDirectory?>,
                 userLoader: (@Sendable () -> UserDirectory)?, collections: [String: RecordCollection]) {
        self.products = products
        self.userStore = userStore
        self.userLoader = userLoader
        self.collections = collections
    }

    /// The catalogue compiled into Understudy: 194 products in 24 categories and the test users.
    public static let standard: Catalog = {
        do {
            let products = try FixtureLoader.products(from: RecordArena(copying: DefaultFixtures.productsJSON.utf8),
                                                      file: "<embedded products.json>")
            return Catalog(products: products, userStore: Locked(nil), userLoader: {
                do {
                    return try FixtureLoader.users(from: Array(DefaultFixtures.usersJSON.utf8), file: "<embedded users.json>")
                } catch {
                    fatalError("Understudy's embedded users are invalid: \(error)")
                }
            }, collections: [:])
        } catch {
            // The embedded fixtures are checked by the test suite; failing here means the build itself is broken.
            fatalError("Understudy's embedded fixtures are invalid: \(error)")
        }
    }()

    /// A catalogue from DummyJSON-format JSON texts.
    /// - Throws: `FixtureError` naming the file, position and problem.
    public convenience init(
        productsJSON: [UInt8], productsFile: String = "products.json",
        usersJSON: [UInt8], usersFile: String = "users.json"
    ) throws(FixtureError) {
        // The two files are independent, so they are read on two cores at once (a products error still wins).
        let products = Locked<Result<RecordCollection, FixtureError>?>(nil)
        let users = Locked<Result<UserDirectory, FixtureError>?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                let loaded = Result { () throws(FixtureError) in try FixtureLoader.products(from: productsJSON, file: productsFile) }
                products.withLock { $0 = loaded }
            } else {
                let loaded = Result { () throws(FixtureError) in try FixtureLoader.users(from: usersJSON, file: usersFile) }
                users.withLock { $0 = loaded }
            }
        }
        guard let loadedProducts = products.withLock({ $0 }), let loadedUsers = users.withLock({ $0 }) else {
            preconditionFailure("concurrentPerform runs every iteration before it returns")
        }
        self.init(products: try loadedProducts.get(), userStore: Locked(try loadedUsers.get()), userLoader: nil,
                  collections: [:])
    }

    /// Names a file in `--fixtures` cannot take: the routes that are not collections.
    static let reservedNames: Set<String> = ["products", "product", "auth", "http", "https", "test", "ping", "health",
                                             "__understudy"]

    /// Loads a directory: `products.json` and `users.json` in DummyJSON's format (one that is absent falls back to
    /// the built-in one), and every other `<name>.json` as your own collection, served at `/<name>`.
    /// - Throws: `FixtureError` when the directory has no JSON file, or a file cannot be read, is invalid, or is
    ///   named after a route that is not a collection.
    public static func load(directory: String) throws(FixtureError) -> Catalog {
        let productsPath = (directory as NSString).appendingPathComponent("products.json")
        let usersPath = (directory as NSString).appendingPathComponent("users.json")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FixtureError(file: directory, line: nil, column: nil, path: nil, reason: "not a directory")
        }
        let productsBytes = try read(productsPath)
        let usersBytes = try read(usersPath)
        var collections: [String: RecordCollection] = [:]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        for file in names where file.hasSuffix(".json") && file != "products.json" && file != "users.json" {
            let name = String(file.dropLast(".json".count))
            let path = (directory as NSString).appendingPathComponent(file)
            guard !name.isEmpty, name.utf8.allSatisfy({ isNameByte($0) }) else {
                throw FixtureError(file: path, line: nil, column: nil, path: nil,
                                   reason: "a collection's name may hold only letters, digits, '-' and '_'")
            }
            guard !reservedNames.contains(name.lowercased()) else {
                throw FixtureError(file: path, line: nil, column: nil, path: nil,
                                   reason: "'/\(name)' is a built-in route, not a collection; rename the file")
            }
            guard let bytes = try read(path) else { continue }
            collections[name.lowercased()] = try FixtureLoader.collection(named: name, from: bytes, file: path)
        }
        guard productsBytes != nil || usersBytes != nil || !collections.isEmpty else {
            throw FixtureError(file: directory, line: nil, column: nil, path: nil, reason: "holds no .json file")
        }
        let products = try productsBytes.map { bytes throws(FixtureError) in
            try FixtureLoader.products(from: bytes, file: productsPath)
        } ?? standard.products
        guard let usersBytes else {
            // The built-in users, parsed when first asked for, as in the standard catalogue.
            return Catalog(products: products, userStore: Locked(nil), userLoader: { standard.users }, collections: collections)
        }
        let users = try FixtureLoader.users(from: Array(usersBytes.bytes), file: usersPath)
        return Catalog(products: products, userStore: Locked(users), userLoader: nil, collections: collections)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// The file's bytes, read straight into the buffer its records will be served from (`RecordArena`).
    private static func read(_ path: String) throws(FixtureError) -> RecordArena? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FixtureError(file: path, line: nil, column: nil, path: nil, reason: "cannot be read") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let bytes = RecordArena(reading: descriptor, size: Int(status.st_size)) else {
            throw FixtureError(file: path, line: nil, column: nil, path: nil, reason: "cannot be read")
        }
        return bytes
    }
}
