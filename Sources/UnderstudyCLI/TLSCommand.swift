import Foundation
import Understudy

/// `understudy tls ca | pin | trust`: the local CA's path, the pins of its certificates, and trusting it in the
/// booted iOS simulators.
enum TLSCommand {
    static let usage = """
        Usage: understudy tls ca    [--tls-dir DIR] [--allow-host NAME]...   print the CA's PEM path (made if needed)
               understudy tls pin   [--tls-dir DIR | --tls-cert FILE]        print SPKI SHA-256 pins (base64)
               understudy tls trust [--tls-dir DIR]                          trust the CA in every booted simulator
        """

    /// The exit status: 0 done, 1 failed, 2 usage.
    static func run(_ arguments: [String]) -> Int32 {
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
        do {
            switch action {
            case "ca":
                try authority.prepare(hostNames: hosts.isEmpty ? nil : hosts)
                print(authority.caCertificatePath)
            case "pin":
                if let certificate = tls.certificate {
                    print("certificate \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: certificate))  \(certificate)")
                } else {
                    try authority.prepare(hostNames: hosts.isEmpty ? nil : hosts)
                    print("leaf \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: authority.certificatePath))  \(authority.certificatePath)")
                    print("ca   \(try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: authority.caCertificatePath))  \(authority.caCertificatePath)")
                }
            default:
                try authority.prepare(hostNames: hosts.isEmpty ? nil : hosts)
                return SimulatorTrust.install(caCertificate: authority.caCertificatePath)
            }
        } catch {
            StandardError.say("understudy tls: \(error)")
            return 1
        }
        return 0
    }

    /// ` --tls-dir DIR` when the options name a directory other than the default, for a command to repeat.
    static func directoryFlag(_ options: TLSOptions) -> String {
        options.directory.map { " --tls-dir '\($0)'" } ?? ""
    }
}
