/// One name a leaf certificate is for: a host name, or an IP address (written in the SAN as an address, which is
/// what a client connecting to `https://127.0.0.1` checks).
struct SubjectName: Hashable {
    /// The name, or the address in its usual text form.
    let value: String
    let isAddress: Bool

    /// The loopback names every leaf carries: what `https://localhost`, `127.0.0.1` and `[::1]` check.
    static let loopback = [SubjectName(host: "localhost"), SubjectName(host: "127.0.0.1"), SubjectName(host: "::1")].compactMap { $0 }

    /// `host` as a SAN entry: an address when it parses as one (brackets allowed), else a DNS name of letters,
    /// digits and inner `-` in each label, with an optional leading `*.`; nil for anything else (a SAN can carry nothing else, and a comma would
    /// split OpenSSL's extension text).
    init?(host: String) {
        if let address = IPAddressText(host) {
            value = address.value
            isAddress = true
            return
        }
        let name = host.lowercased().hasSuffix(".") ? String(host.lowercased().dropLast()) : host.lowercased()
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }),
              labels.enumerated().allSatisfy({ index, label in
                  (index == 0 && label == "*" && labels.count > 2)
                      || (label.first != "-" && label.last != "-" && label.utf8.allSatisfy {
                          $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0)
                      })
              }) else { return nil }
        value = name
        isAddress = false
    }

    /// The name as `X509V3_EXT_conf_nid` reads it: `DNS:localhost`, `IP:::1`.
    var extensionValue: String {
        (isAddress ? "IP:" : "DNS:") + value
    }

    /// The loopback names, then each of `hosts` not already among them, in order.
    static func forLeaf(hosts: [String]) throws(TLSError) -> [SubjectName] {
        var names = loopback
        for host in hosts {
            guard let name = SubjectName(host: host) else {
                throw TLSError("'\(host)' cannot be a name in a certificate: use a host name or an IP address")
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
