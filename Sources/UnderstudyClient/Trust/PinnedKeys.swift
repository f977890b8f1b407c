import Foundation

/// The public keys a client accepts from HTTPS servers, as base64 SHA-256 digests of their SubjectPublicKeyInfo:
/// what `understudy tls pin` prints (pin the CA's to survive renewals, the leaf's to pin one certificate).
///
/// Set ``APIClient/Configuration/pinnedKeys``. Each connection's certificate must first be trusted as usual; then
/// one key in its chain must be pinned, or the request fails with ``APIError/Kind/pinMismatch``.
///
/// Enforced on Apple platforms only, through the session's server-trust challenge. Linux's FoundationNetworking
/// (libcurl) offers no such challenge and no way to see the server's certificate, so there pinning is a documented
/// no-op: ``isEnforced`` is false, and the usual trust checks still apply.
public struct PinnedKeys: Sendable, Hashable {
    /// The digests, base64 as given.
    public let digests: Set<String>

    /// Whether this platform checks the pins (true on Apple platforms, false on Linux).
    public static var isEnforced: Bool {
        #if canImport(Security)
        true
        #else
        false
        #endif
    }

    /// A pin that is not the base64 of 32 bytes (a SHA-256 digest).
    public struct InvalidPin: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text given.
        public let pin: String
        /// What was wrong, naming the pin.
        public var description: String { "'\(pin)' is not a pin: expected the base64 of a SHA-256 digest (44 characters)" }
    }

    /// Pins `digests`, e.g. `["R6c2…="]` from `understudy tls pin`.
    ///
    /// - Throws: ``InvalidPin`` for a digest that is not the base64 of 32 bytes, or when there is none.
    public init(_ digests: [String]) throws(InvalidPin) {
        guard !digests.isEmpty else { throw InvalidPin(pin: "") }
        for pin in digests where Data(base64Encoded: pin)?.count != 32 { throw InvalidPin(pin: pin) }
        self.digests = Set(digests)
    }
}
