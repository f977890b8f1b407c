import Foundation
import Understudy

/// `understudy tls ca | pin | trust`: the local CA's path, the pins of its certificates, and trusting it in the
/// booted iOS simulators.
enum TLSCommand {
    static let usage = """
        Usage: understudy tls ca    [--tls-dir DIR] [--allow-host NAME]...   print the CA's PEM path (made if needed)
               understudy tls pin   [--tls-dir DIR | --tls-cert FILE]        print SPKI SHA-256 pins (base64)
               understudy tls trust [--tls-dir DIR]                          trust the CA in every booted simulator

        Exits 0 when done, 1 when it failed or the local CA on disk was unusable and had to be replaced (the new
        one is printed, and must be trusted again where the old one was), 2 on a usage error.
        """

    /// The exit status: 0 done, 1 failed or a CA replaced, 2 usage.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        guard let action = arguments.first, ["ca", "pin", "trust"].contains(action) else {
            StandardError.say("understudy tls: name what to do: ca, pin or trust\n\n\(usage)")
            return 2
        }
        var tls = TLSOptions()
        var hosts: [String] = []
        var remaining = arguments.dropFirst()
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst(), ["--tls-dir", "--tls-cert", "--allow-host"].contains(flag) else {
                StandardError.say("understudy tls: unknown option or missing value '\(flag)'\n\n\(usage)")
                return 2
            }
            if flag == "--allow-host" { hosts.append(value) } else { try? tls.read(flag, value: value) }
        }
        let authority = tls.authority
        var status: Int32 = 0
        do {
            func prepare() throws(TLSError) {
                let preparation = try authority.prepare(hostNames: hosts.isEmpty ? nil : hosts)
                status = announce(preparation, authority: authority, options: tls)
            }
            switch action {
            case "ca":
                try prepare()
                print(authority.caCertificatePath)
            case "pin":
                if let certificate = tls.certificate {
                    print("certificate \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: certificate))  \(certificate)")
                } else {
                    try prepare()
                    print("leaf \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: authority.certificatePath))  \(authority.certificatePath)")
                    print("ca   \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: authority.caCertificatePath))  \(authority.caCertificatePath)")
                }
            default:
                try prepare()
                return max(status, SimulatorTrust.install(caCertificate: authority.caCertificatePath))
            }
        } catch {
            StandardError.say("understudy tls: \(error)")
            return 1
        }
        return status
    }

    /// Says on standard error what `prepare` made that clients must act on; 1 when it replaced an unusable CA,
    /// which every client that trusted the old one no longer accepts.
    static func announce(_ preparation: LocalCertificateAuthority.Preparation, authority: LocalCertificateAuthority,
                         options: TLSOptions) -> Int32 {
        switch preparation {
        case .reused, .renewedCertificate:
            return 0
        case .createdAuthority(let reason):
            StandardError.say("understudy tls: made a local CA (\(reason)): \(authority.caCertificatePath); trust it where "
                              + "your clients run: understudy tls trust\(directoryFlag(options))")
            return 0
        case .replacedAuthority(let reason):
            StandardError.say("understudy tls: replaced the local CA: \(reason). Clients that trusted the old one reject "
                              + "this one until it is trusted again: understudy tls trust\(directoryFlag(options)), and "
                              + "update any CA pin (understudy tls pin)")
            return 1
        }
    }

    /// ` --tls-dir DIR` when the options name a directory other than the default, for a command to repeat.
    static func directoryFlag(_ options: TLSOptions) -> String {
        options.directory.map { " --tls-dir '\($0)'" } ?? ""
    }
}
