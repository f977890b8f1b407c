import UnderstudyLocking

/// Where a ``TokenStore`` keeps its tokens between launches.
///
/// The package ships only ``InMemoryTokenStorage``. On Apple platforms a Keychain-backed storage plugs in here:
/// implement `load()` with `SecItemCopyMatching` and `save(_:)` with `SecItemDelete` + `SecItemAdd` on a
/// `kSecClassGenericPassword` item (accessibility `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, the
/// ``TokenPair`` JSON-encoded as the item's data), then pass it to ``TokenStore/init(storage:refresher:)``.
/// Never keep tokens in `UserDefaults` or a plain file.
public protocol TokenStorage: Sendable {
    /// Reads the saved tokens, nil when there are none.
    ///
    /// - Throws: Storage failures; the store then starts signed out.
    func load() async throws -> TokenPair?

    /// Replaces the saved tokens; nil deletes them.
    ///
    /// - Parameter tokens: The tokens to keep.
    /// - Throws: Storage failures; the store keeps the tokens in memory regardless.
    func save(_ tokens: TokenPair?) async throws
}

/// Tokens kept in memory only: gone when the process ends.
public final class InMemoryTokenStorage: TokenStorage {
    private let tokens: Locked<TokenPair?>

    /// Creates storage, optionally holding tokens already.
    public init(_ tokens: TokenPair? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The tokens held, nil when none.
    public func load() async throws -> TokenPair? {
        tokens.withLock { $0 }
    }

    /// Replaces the tokens held; nil clears them.
    public func save(_ tokens: TokenPair?) async throws {
        self.tokens.withLock { $0 = tokens }
    }
}
