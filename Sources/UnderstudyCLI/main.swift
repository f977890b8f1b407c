import Dispatch
import Foundation
import Understudy
import UnderstudyRecording

// A reader of stdout or stderr that goes away must not kill the server: writes then fail with EPIPE instead.
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "wait" {
    exit(WaitCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
}
if arguments.first == "tls" {
    exit(TLSCommand.run(Array(arguments.dropFirst())))
}
if arguments.first == "import" {
    exit(ImportCommand.run(Array(arguments.dropFirst())))
}
if arguments.first == "spec" {
    exit(SpecCommand.run(Array(arguments.dropFirst())))
}
let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(arguments)
} catch {
    StandardError.say("understudy: \(error.message)\n\n\(CommandLineOptions.usage)")
    exit(2)
}
if options.showHelp {
    print(CommandLineOptions.usage)
    exit(0)
}
if options.showVersion {
    print("understudy \(Understudy.version)")
    exit(0)
}

func say(_ message: String) {
    StandardError.say("understudy: \(message)")
}

func fail(_ message: String, code: Int32) -> Never {
    say(message)
    exit(code)
}

// SIGINT and SIGTERM are taken by the main thread with sigwait rather than through Dispatch's signal sources and
// dispatchMain: blocked here, before any thread exists, so every thread inherits the mask and none is interrupted.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

// The catalogue is chosen before the configuration exists, so the built-in one is never parsed for nothing.
let catalog: Catalog
if let directory = options.fixturesDirectory {
    do {
        catalog = try Catalog.load(directory: directory)
    } catch {
        fail("cannot load fixtures: \(error)", code: 2)
    }
} else {
    catalog = .standard
}
var configuration = UnderstudyServer.Configuration(host: options.host, port: options.port, catalog: catalog)
configuration.journalCapacity = options.journalSize
configuration.adminToken = options.adminToken ?? ProcessInfo.processInfo.environment["UNDERSTUDY_ADMIN_TOKEN"]
configuration.shutdownGraceSeconds = options.shutdownGraceSeconds
configuration.allowedHosts = options.allowedHosts
for path in options.scenarioPaths {
    do {
        let scenario = try Scenario.load(path: path)
        if !scenario.tlsFaults.isEmpty, options.tls.settings == nil {
            fail("cannot load scenario: \(path) sets tlsFaults, which need HTTPS: add --tls or --tls-port", code: 2)
        }
        configuration.rules += scenario.rules
        configuration.tlsFaults += scenario.tlsFaults
        if let seed = scenario.seed { configuration.seed = seed }
        let tlsFaults = scenario.tlsFaults.isEmpty ? "" : ", \(scenario.tlsFaults.count) TLS faults"
        say("scenario \(path): \(scenario.rules.count) rules\(tlsFaults). \(scenario.description)")
    } catch {
        fail("cannot load scenario: \(error)", code: 2)
    }
}
if let seed = options.seed { configuration.seed = seed }
do throws(CommandLineOptions.UsageError) {
    try options.proxy.configure(&configuration, warn: say)
} catch {
    fail(error.message, code: 2)
}
if let path = options.spec.path {
    do {
        let spec = try OpenAPISpec(contentsOf: path, options: options.spec.serving)
        for warning in spec.warnings.prefix(20) { say(warning) }
        if spec.warnings.count > 20 { say("… and \(spec.warnings.count - 20) more warnings (understudy spec check \(path) lists them all)") }
        configuration.spec = spec
    } catch {
        fail("cannot serve \(path):\n\(error.description)", code: 2)
    }
}
configuration.tls = options.tls.settings
if case .localAuthority = configuration.tls?.identity {
    // Prepared here, before the server does it again (a reuse), so a new CA is announced with what to do about it.
    do {
        switch try options.tls.authority.prepare(hostNames: configuration.certificateNames) {
        case .createdAuthority(let reason):
            say("made a local CA (\(reason)): \(options.tls.authority.caCertificatePath)")
            say("trust it where your clients run: understudy tls trust\(TLSCommand.directoryFlag(options.tls))")
        case .replacedAuthority(let reason):
            say("replaced the local CA (\(reason)): \(options.tls.authority.caCertificatePath)")
            say("clients that trusted the old one must trust this one: understudy tls trust\(TLSCommand.directoryFlag(options.tls))")
        case .reused, .renewedCertificate:
            break
        }
    } catch {
        fail("cannot serve HTTPS: \(error)", code: 2)
    }
}
let requestLog = StandardError()
if !options.quiet {
    configuration.requestLog = { entry in requestLog.log("\(entry)") }
}

let server: UnderstudyServer
do {
    server = try UnderstudyServer.start(configuration)
} catch {
    fail(error.description, code: error.kind == .addressInUse ? 1 : 2)
}
if !RemoteControlPolicy.isLoopback(host: options.host) {
    say("WARNING: listening on \(options.host): any machine that can reach it can use it.")
    say(configuration.adminToken == nil
        ? "WARNING: fault injection and the admin API are OFF (pass --admin-token to enable them)."
        : "WARNING: fault injection and the admin API need the admin token (header X-Understudy-Token).")
}
print("Understudy \(Understudy.version) listening on \(server.baseURL.absoluteString)")
// curl trusts the local CA only when told to: the suggestion is the command that works before it is trusted.
let curl: String = {
    guard server.baseURL.scheme == "https", case .localAuthority = configuration.tls?.identity else { return "curl" }
    return "curl --cacert '\(options.tls.authority.caCertificatePath)'"
}()
if let secure = server.secureBaseURL, secure != server.baseURL {
    print("HTTPS on \(secure.absoluteString)")
}
for line in options.proxy.describe(configuration) { print(line) }
if let spec = configuration.spec, configuration.upstream != nil {
    print("Checking every exchange against \(spec.title.isEmpty ? spec.path : spec.title) (OpenAPI \(spec.version), \(spec.operationIDs.count) operations) from \(spec.path)\(spec.options.failsOnViolations ? ", refusing what breaks it (--spec-errors)" : ""): X-Understudy-Violations on each reply, GET \(server.baseURL.absoluteString)/__understudy/violations for the report")
} else if let spec = configuration.spec {
    print("Serving \(spec.title.isEmpty ? spec.path : spec.title) (OpenAPI \(spec.version), \(spec.operationIDs.count) operations) from \(spec.path), seed \(configuration.seed). Try: \(curl) -i \(server.baseURL.absoluteString)/… with a path of the document")
} else if configuration.replay == nil, configuration.upstream == nil {
    print("Serving \(configuration.catalog.productCount) products and \(configuration.catalog.userCount) users, seed \(configuration.seed). Try: \(curl) \(server.baseURL.absoluteString)/products/1")
}
print("Control room: \(server.baseURL.absoluteString)/__understudy/ (open it in a browser: live traffic, one-click faults, a demo client)")
fflush(nil)

// The first signal stops gracefully on another queue (in-flight replies finish, streams end); a second one exits
// at once.
@MainActor func waitForStopSignal() {
    var received: Int32 = 0
    while sigwait(&stopSignals, &received) != 0 {}
}
waitForStopSignal()
say("stopping (signal again to quit at once)")
DispatchQueue(label: "understudy.stop").async {
    server.stop()
    requestLog.flush()
    exit(0)
}
waitForStopSignal()
fail("stopping now", code: 0)
