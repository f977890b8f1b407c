import UnderstudyJSON

/// The users that can log in, looked up by username (case-insensitively) and by id.
struct UserDirectory: Sendable {
    struct User: Sendable {
        let id: Int
        let username: String
        let password: String
        let object: JSONObject
        /// The full user object's compact JSON, as `/auth/me` returns it and `/users` serves it (the same buffer).
        let encoded: SharedBytes

        /// The claims DummyJSON puts in a token, in its order (`iat` and `exp` are added when signing).
        var tokenClaims: [JSONObject.Entry] {
            var claims: [JSONObject.Entry] = [.init(key: "id", value: .number(JSONNumber(id)))]
            for key in ["username", "email", "firstName", "lastName", "gender", "image"] {
                claims.append(.init(key: key, value: object[key] ?? .string("")))
            }
            return claims
        }
    }

    let users: [User]
    private let indexByUsername: [String: Int]
    private let indexByID: [Int: Int]

    init(users: [User]) {
        self.users = users
        var byName: [String: Int] = [:]
        var byID: [Int: Int] = [:]
        for (index, user) in users.enumerated() {
            byName[user.username.lowercased()] = index
            byID[user.id] = index
        }
        self.indexByUsername = byName
        self.indexByID = byID
    }

    /// The user with this username, matched case-insensitively as DummyJSON does.
    func user(named username: String) -> User? {
        indexByUsername[username.lowercased()].map { users[$0] }
    }

    /// The user with this id.
    func user(id: Int) -> User? {
        indexByID[id].map { users[$0] }
    }
}
