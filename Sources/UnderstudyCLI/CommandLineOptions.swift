import Understudy

/// The `understudy` command's flags.
struct CommandLineOptions: Equatable {
    var host = "127.0.0.1"
    var port = 8080
    var fixturesDirectory: String?
    var scenarioPaths: [String] = []
    var seed: UInt64?
    var journalSize = 10_000
    var adminToken: String?
    var allowedHosts: [String] = []
    var shutdownGraceSeconds = 5.0
    var proxy = UpstreamOptions()
    var spec = SpecOptions()
    var quiet = false
    var tls = TLSOptions()
    var showHelp = false
    var showVersion = false

    /// A flag the command does not understand, or one missing its value.
    struct UsageError: Error, Equatable {
        let message: String
    }

    static let usage = """
        Usage: understudy [--host HOST] [--port PORT] [--fixtures DIR] [--scenario FILE]... [--seed N]
                          [--journal-size N] [--admin-token TOKEN] [--allow-host NAME]... [--grace SECONDS]
                          [--quiet] [--tls | --tls-port PORT] [--tls-dir DIR | --tls-cert FILE --tls-key FILE]
                          [--upstream URL [--upstream-timeout S] [--upstream-ca FILE | --upstream-insecure]]
                          [--replay DIR [--replay-ignore-query NAME]...]
                          [--record DIR [--redact-field NAME]... [--no-redact]]
                          [--spec FILE [--validate on|off] [--stateless] [--dynamic] [--spec-strict-examples]
                                       [--spec-tolerate 3.0-keywords] [--spec-errors] [--spec-mock-missing PATH]...]
               understudy wait [--timeout SECONDS] [URL]   (exits 0 once a server at URL answers)
               understudy tls ca | pin | trust [--tls-dir DIR] [--allow-host NAME]...
               understudy import FILE.har --to DIR        (turns a HAR file into a recording; see import --help)
               understudy spec check FILE                 (loads an OpenAPI document and prints what it finds)
               understudy --help | --version

        A DummyJSON-compatible fake backend with faults on cue.

          --host HOST      address to listen on (default 127.0.0.1 and ::1, as is localhost; 0.0.0.0 exposes it)
          --port PORT      port to listen on; 0 picks a free one (default 8080)
          --fixtures DIR   serve DIR/products.json and DIR/users.json (DummyJSON format) instead of the built-in data,
                           and every other DIR/<name>.json as your own collection at /<name>
          --scenario FILE  load fault rules from FILE at start (repeatable); see fixtures/scenarios/
          --seed N         seed every random choice, so a run can be replayed (default 1)
          --journal-size N keep the last N requests in the journal (default 10000)
          --admin-token T  require T (header X-Understudy-Token) for faults and the admin API; without it they
                           are refused whenever --host is not a loopback address
          --allow-host NAME
                           let the admin API answer to Host NAME too (repeatable); besides it, only the --host
                           address, localhost and loopback addresses may be named (a guard against DNS rebinding)
          --upstream URL   forward every request outside /__understudy to URL (http:// or https://), WebSocket
                           upgrades included (relayed as ws:// or wss://), with faults applied to its replies and
                           messages; the DummyJSON routes are off
          --upstream-timeout S
                           answer 504 when the upstream does not connect or reply within S seconds (default 30)
          --upstream-ca FILE
                           trust the CA certificates in FILE (PEM) for an https upstream, besides the system's
          --upstream-insecure
                           do not verify an https upstream's certificate at all (loudly: anyone on the way can
                           read and change the traffic)
          --replay DIR     answer every request outside /__understudy from the recording in DIR instead of the
                           DummyJSON routes; a request it does not hold gets a JSON 502 naming the nearest
                           recordings (header X-Understudy-Replay: miss). A broken file stops start-up
          --replay-ignore-query NAME
                           leave the query parameter NAME out of matching (repeatable), besides those the
                           recording's understudy-recording.json lists
          --record DIR     with --upstream: write each forwarded exchange into DIR as it happens (one reviewable
                           JSON file per request; replay it with --replay DIR). With --replay too, only the
                           requests the recording misses are forwarded, and recorded. Authorization, Cookie,
                           Set-Cookie and token-like JSON fields (accessToken, refreshToken, token, password)
                           become numbered placeholders
          --redact-field NAME
                           redact the JSON field NAME too (repeatable)
          --no-redact      record secrets as they are, unredacted (never for a recording you share)
          --spec FILE      answer every request outside /__understudy from the OpenAPI 3.0, 3.1 or 3.2 document
                           FILE (YAML or JSON, with the files its $refs reach) instead of the DummyJSON routes: the
                           lowest 2xx with its first example, or data from its schema; Prefer: code=, example=,
                           dynamic=, seed= (or ?__code=…) choose; requests are validated; collections keep state per
                           session. A document that cannot be served stops start-up with file:line:column
          --validate on|off
                           check requests against the document (default on): 401, 415, 406, 422 as Prism answers
          --stateless      answer every request from the document alone, keeping nothing written
          --dynamic        answer with seeded data from the schemas rather than the examples
          --spec-strict-examples
                           an example that contradicts its schema stops start-up (a warning otherwise)
          --spec-tolerate 3.0-keywords
                           read a 3.1 document's OpenAPI 3.0 nullable: true as 3.0 does
                           With --upstream URL, --spec FILE holds the upstream to the document instead: every request
                           and reply is checked, each violation named in X-Understudy-Violations, the journal and
                           GET /__understudy/violations; an operation the upstream lacks (501, or a 404 it does not
                           document) is answered from the document (X-Understudy-Mocked: openapi)
          --spec-errors    with --upstream: refuse what breaks the document (a request 422 before forwarding, a
                           reply a 502), problem+json naming the violations
          --spec-mock-missing PATH
                           with --upstream: answer PATH (a glob, e.g. /v2/orders*) from the document, never
                           forwarding it (repeatable)
          --grace SECONDS  on SIGTERM/SIGINT, let in-flight replies finish for up to SECONDS (default 5)
          --quiet          do not log one line per request on stderr
          --tls            serve HTTPS instead of http on --port, with a certificate from your local CA (made on
                           first use; trust it with `understudy tls trust`)
          --tls-port PORT  serve HTTPS on PORT as well, while http stays on --port
          --tls-dir DIR    keep the local CA and its certificate in DIR (default \(TLSOptions.defaultDirectoryText))
          --tls-cert FILE --tls-key FILE
                           serve your own certificate chain and key (PEM) instead of the local CA's
          --help           show this help
          --version        show the version
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var cursor = ArgumentCursor(arguments)
        while case let (argument, flag)? = cursor.next() {
            func value() throws(UsageError) -> String { try cursor.value() }
            switch flag {
            case "--host":
                options.host = try value()
                if options.host.isEmpty { throw UsageError(message: "--host needs a non-empty address") }
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65_535).contains(port) else {
                    throw UsageError(message: "--port must be a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            case "--fixtures": options.fixturesDirectory = try value()
            case "--scenario": options.scenarioPaths.append(try value())
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw UsageError(message: "--seed must be a whole number, not '\(text)'") }
                options.seed = seed
            case "--journal-size":
                let text = try value()
                guard let size = Int(text), (1...10_000_000).contains(size) else {
                    throw UsageError(message: "--journal-size must be a number from 1 to 10000000, not '\(text)'")
                }
                options.journalSize = size
            case "--admin-token":
                options.adminToken = try value()
                if options.adminToken?.isEmpty != false { throw UsageError(message: "--admin-token needs a non-empty token") }
            case "--allow-host":
                let name = try value()
                // A name or an address without a port (one colon reads as `host:port`); IPv6 with or without brackets.
                let bracketed = name.hasPrefix("[") && name.hasSuffix("]")
                guard !name.isEmpty, bracketed || name.count(where: { $0 == ":" }) != 1, !name.contains(where: { "/@ ".contains($0) }) else {
                    throw UsageError(message: "--allow-host needs a host name without a port, not '\(name)'")
                }
                options.allowedHosts.append(name)
            case "--grace":
                let text = try value()
                guard let seconds = Double(text), seconds >= 0, seconds <= 300 else {
                    throw UsageError(message: "--grace must be a number of seconds from 0 to 300, not '\(text)'")
                }
                options.shutdownGraceSeconds = seconds
            case _ where SpecOptions.flags.contains(flag):
                try options.spec.read(flag, value: SpecOptions.switches.contains(flag) ? nil : try value())
            case _ where UpstreamOptions.flags.contains(flag):
                try options.proxy.read(flag, value: UpstreamOptions.switches.contains(flag) ? nil : try value())
            case "--tls", "--tls-port", "--tls-dir", "--tls-cert", "--tls-key":
                try options.tls.read(flag, value: flag == "--tls" ? nil : try value())
            case "--quiet", "-q": options.quiet = true
            case "--help", "-h": options.showHelp = true
            case "--version": options.showVersion = true
            default: throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        try options.tls.check(port: options.port)
        try options.proxy.check()
        try options.spec.check(upstream: options.proxy.upstream != nil, replay: options.proxy.replayDirectory != nil)
        return options
    }
}
