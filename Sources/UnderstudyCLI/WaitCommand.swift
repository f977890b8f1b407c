import Foundation
import Understudy

/// `understudy wait`: asks until the server answers 2xx or the time is up, so scripts need no curl loop.
enum WaitCommand {
    /// The exit status: 0 answered, 1 timed out, 2 usage.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: WaitOptions
        do {
            options = try WaitOptions.parse(arguments, environment: environment)
        } catch {
            StandardError.say("understudy wait: \(error.message)\n\n\(WaitOptions.usage)")
            return 2
        }
        if options.showHelp {
            print(WaitOptions.usage)
            return 0
        }
        var tls: UpstreamTLS?
        if options.isSecure {
            do {
                tls = try UpstreamTLS(verification: .verified(extraCAFile: options.trustedCAFile))
            } catch {
                StandardError.say("understudy wait: \(error)")
                return 2
            }
        }
        // URL keeps an IPv6 host's brackets; the resolver wants the address alone.
        let host = (options.url.host ?? "localhost").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = options.url.port ?? (options.isSecure ? 443 : 80)
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(options.timeoutSeconds * 1_000))
        var last = "no attempt"
        repeat {
            let left = Int32(max(1, min(2_000, (deadline - clock.now) / .milliseconds(1))))
            switch HTTPProbe.status(host: host, port: port, target: options.target, tls: tls, timeoutMilliseconds: left) {
            case .success(let status) where (200..<300).contains(status):
                print("understudy wait: \(options.url.absoluteString) answered \(status)")
                return 0
            case .success(let status): last = "status \(status)"
            case .failure(let failure): last = failure.description
            }
            // Between attempts: short, as a server starts in milliseconds.
            if clock.now < deadline { usleep(50_000) }
        } while clock.now < deadline
        StandardError.say("understudy wait: no 2xx from \(options.url.absoluteString) (GET \(options.target)) within "
                          + "\(options.timeoutSeconds) s; last: \(last)")
        return 1
    }
}
