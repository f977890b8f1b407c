/// Whether the local CA and leaf on disk can serve as they are, decided from what was found: a value, so each rule
/// is tested without files or clocks.
struct CertificateRenewal: Equatable {
    /// Renewal starts this long before a certificate ends.
    static let windowSeconds = 30.0 * 86_400

    /// What was found on disk.
    struct Found: Equatable {
        /// When the CA ends; nil when it or its key is missing, unreadable, or the two do not belong together.
        var caNotAfter: Double?
        /// When the leaf ends; nil when it or its key is missing, unreadable, mismatched, or not signed by the CA.
        var leafNotAfter: Double?
        /// The leaf's subject alternative names.
        var leafNames: Set<String> = []
    }

    /// What to do, and why in words (the CLI says it).
    enum Action: Equatable {
        case reuse
        case issueLeaf(reason: String)
        case issueAll(reason: String)
    }

    static func decide(_ found: Found, wanted: Set<String>, now: Double) -> Action {
        guard let caNotAfter = found.caNotAfter else { return .issueAll(reason: "no usable local CA") }
        if caNotAfter - now < windowSeconds { return .issueAll(reason: "the local CA ends within 30 days") }
        guard let leafNotAfter = found.leafNotAfter else { return .issueLeaf(reason: "no usable certificate for the CA") }
        if leafNotAfter - now < windowSeconds { return .issueLeaf(reason: "the certificate ends within 30 days") }
        if found.leafNames != wanted {
            return .issueLeaf(reason: "the host names changed (now \(wanted.sorted().joined(separator: ", ")))")
        }
        return .reuse
    }
}
