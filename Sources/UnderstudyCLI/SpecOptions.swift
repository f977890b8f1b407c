import Understudy

/// The flags for serving a team's OpenAPI document (`--spec`).
struct SpecOptions: Equatable {
    var path: String?
    var validates = true
    var stateless = false
    var dynamic = false
    var strictExamples = false

    static let flags: Set<String> = ["--spec", "--validate", "--stateless", "--dynamic", "--spec-strict-examples"]
    /// The flags that take no value.
    static let switches: Set<String> = ["--stateless", "--dynamic", "--spec-strict-examples"]

    typealias UsageError = CommandLineOptions.UsageError

    /// Takes one flag (`value` nil for a switch).
    mutating func read(_ flag: String, value: String?) throws(UsageError) {
        switch flag {
        case "--spec":
            guard let value, !value.isEmpty else { throw UsageError(message: "--spec needs an OpenAPI document (YAML or JSON)") }
            path = value
        case "--validate":
            switch value {
            case "on": validates = true
            case "off": validates = false
            default: throw UsageError(message: "--validate must be on or off, not '\(value ?? "")'")
            }
        case "--stateless": stateless = true
        case "--dynamic": dynamic = true
        default: strictExamples = true
        }
    }

    /// Whether the flags make sense together.
    func check(upstream: Bool, replay: Bool) throws(UsageError) {
        guard path != nil else {
            if let flag = [(!validates, "--validate"), (stateless, "--stateless"), (dynamic, "--dynamic"),
                           (strictExamples, "--spec-strict-examples")].first(where: \.0)?.1 {
                throw UsageError(message: "\(flag) needs --spec FILE")
            }
            return
        }
        if replay { throw UsageError(message: "--spec and --replay both answer every request: choose one") }
        if upstream { throw UsageError(message: "--spec with --upstream (checking a real API against its document) is not served yet: use one of them") }
    }

    /// The serving options the flags ask for.
    var serving: OpenAPISpec.Options {
        var options = OpenAPISpec.Options()
        options.validatesRequests = validates
        options.stateful = !stateless
        options.dynamic = dynamic
        options.examplesMustMatch = strictExamples
        return options
    }
}
