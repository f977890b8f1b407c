import Foundation
import UnderstudyLocking
import UnderstudyJSON

/// The data Understudy serves: products, their categories and the users that can log in. Immutable once loaded,
/// so every server in a process can share one.
public final class Catalog: Sendable {
    let products: [PreparedProduct]
    let users: UserDirectory
    let categories: [ProductCategory]
    private let indexByID: [String: Int]
    /// `/products/categories` and `/products/category-list`, encoded once.
    let categoriesBody: SharedBytes
    let categoryListBody: SharedBytes

    /// The number of products.
    public var productCount: Int { products.count }
    /// The number of users.
    public var userCount: Int { users.users.count }

    init(products: [PreparedProduct], users: UserDirectory) {
        self.products = products
        self.users = users
        var index: [String: Int] = [:]
        var slugs: [String] = []
        var seenSlugs: Set<String> = []
        for (position, product) in products.enumerated() {
            index[product.idText] = position
            let slug = product.object["category"]?.stringValue ?? ""
            if seenSlugs.insert(slug).inserted { slugs.append(slug) }
        }
        self.indexByID = index
        self.categories = slugs.map(ProductCategory.init(slug:))
        self.categoriesBody = SharedBytes(JSONWriter.encode(.array(categories.map(\.json))))
        self.categoryListBody = SharedBytes(JSONWriter.encode(.array(slugs.map(JSONValue.string))))
    }

    /// The product whose id, written as DummyJSON writes it (`String(id)`), is exactly `idText`.
    func productIndex(idText: String) -> Int? {
        indexByID[idText]
    }

    /// The catalogue compiled into Understudy: 194 products in 24 categories and the test users.
    public static let standard: Catalog = {
        do {
            return try Catalog(
                productsJSON: Array(DefaultFixtures.productsJSON.utf8), productsFile: "<embedded products.json>",
                usersJSON: Array(DefaultFixtures.usersJSON.utf8), usersFile: "<embedded users.json>")
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
        let products = Locked<Result<[PreparedProduct], FixtureError>?>(nil)
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
        self.init(products: try loadedProducts.get(), users: try loadedUsers.get())
    }

    /// Loads `products.json` and `users.json` from a directory; a file that is absent falls back to the built-in one.
    /// - Throws: `FixtureError` when the directory has neither file, or a file cannot be read or is invalid.
    public static func load(directory: String) throws(FixtureError) -> Catalog {
        let productsPath = (directory as NSString).appendingPathComponent("products.json")
        let usersPath = (directory as NSString).appendingPathComponent("users.json")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FixtureError(file: directory, line: nil, column: nil, path: nil, reason: "not a directory")
        }
        let productsBytes = try read(productsPath)
        let usersBytes = try read(usersPath)
        guard productsBytes != nil || usersBytes != nil else {
            throw FixtureError(file: directory, line: nil, column: nil, path: nil,
                               reason: "holds neither products.json nor users.json")
        }
        let products = try productsBytes.map { bytes throws(FixtureError) in
            try FixtureLoader.products(from: bytes, file: productsPath)
        } ?? standard.products
        let users = try usersBytes.map { bytes throws(FixtureError) in
            try FixtureLoader.users(from: bytes, file: usersPath)
        } ?? standard.users
        return Catalog(products: products, users: users)
    }

    private static func read(_ path: String) throws(FixtureError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(file: path, line: nil, column: nil, path: nil, reason: "cannot be read")
        }
        return Array(data)
    }
}
