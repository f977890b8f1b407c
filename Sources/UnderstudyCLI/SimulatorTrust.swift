import Foundation

/// Trusting the local CA in the iOS simulators: `xcrun simctl keychain <udid> add-root-cert` for each booted one
/// on a Mac; elsewhere, the commands to run on one.
enum SimulatorTrust {
    /// The exit status: 0 when every booted simulator took the CA (or, off a Mac, the commands were printed).
    static func install(caCertificate path: String) -> Int32 {
        #if os(macOS)
        guard let listing = run(["xcrun", "simctl", "list", "devices", "booted", "--json"]), listing.status == 0 else {
            StandardError.say("understudy tls trust: `xcrun simctl` is unavailable (install Xcode); trust \(path) by hand")
            return 1
        }
        let devices = bootedDevices(in: listing.output)
        if devices.isEmpty {
            StandardError.say("understudy tls trust: no simulator is booted; boot one and run this again")
            return 1
        }
        var failed = false
        for (udid, name) in devices {
            let added = run(["xcrun", "simctl", "keychain", udid, "add-root-cert", path])
            if added?.status == 0 {
                print("trusted \(path) in \(name) (\(udid))")
            } else {
                failed = true
                StandardError.say("understudy tls trust: \(name) (\(udid)) refused the CA: "
                                  + (added.map { String(decoding: $0.output, as: UTF8.self) } ?? "simctl did not run"))
            }
        }
        return failed ? 1 : 0
        #else
        print("""
            # On a Mac, for each booted iOS simulator (`xcrun simctl list devices booted`):
            xcrun simctl keychain booted add-root-cert '\(path)'
            # On a Mac, for Safari and URLSession on the Mac itself:
            security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db '\(path)'
            # Here (Debian, Ubuntu), for curl, Python and every OpenSSL client:
            sudo cp '\(path)' /usr/local/share/ca-certificates/understudy-ca.crt && sudo update-ca-certificates
            """)
        return 0
        #endif
    }

    /// The booted devices' UDIDs and names in `simctl list devices booted --json`.
    static func bootedDevices(in json: Data) -> [(udid: String, name: String)] {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let runtimes = root["devices"] as? [String: Any] else { return [] }
        return runtimes.keys.sorted().flatMap { runtime in
            (runtimes[runtime] as? [[String: Any]] ?? []).compactMap { device in
                guard device["state"] as? String == "Booted", let udid = device["udid"] as? String else { return nil }
                return (udid, device["name"] as? String ?? udid)
            }
        }
    }

    #if os(macOS)
    private static func run(_ command: [String]) -> (status: Int32, output: Data)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
    #endif
}
