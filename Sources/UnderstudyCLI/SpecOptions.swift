import Understudy

/// The flags for serving a team's OpenAPI document (`--spec`), or holding an upstream to it (`--upstream` too).
struct SpecOptions: Equatable {
    var path: String?
    var validates = true
    var stateless = false
    var dynamic = false
    var strictExamples = false
    var tolerates30Keywords = false
    var failsOnViolations = false
    var mockedPaths: [String] = []

    static let flags: Set<String> = ["--spec", "--validate", "--stateless", "--dynamic", "--spec-strict-examples",
                                     "--spec-tolerate", "--spec-errors", "--spec-mock-missing"]
    /// The flags that take no value.
    static let switches: Set<String> = ["--stateless", "--dynamic", "--spec-strict-examples", "--spec-errors"]

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
        case "--spec-tolerate":
            guard value == "3.0-keywords" else {
                throw UsageError(message: "--spec-tolerate takes 3.0-keywords (read a 3.1 document's nullable as 3.0 does), not '\(value ?? "")'")
            }
            tolerates30Keywords = true
        case "--spec-errors": failsOnViolations = true
        case "--spec-mock-missing":
            guard let value, value.hasPrefix("/") else {
                throw UsageError(message: "--spec-mock-missing needs a path or glob starting with /, such as /v2/orders*")
            }
            mockedPaths.append(value)
        default: strictExamples = true
        }
    }

    /// Whether the flags make sense together.
    func check(upstream: Bool, replay: Bool) throws(UsageError) {
        guard path != nil else {
            if let flag = [(!validates, "--validate"), (stateless, "--stateless"), (dynamic, "--dynamic"),
                           (strictExamples, "--spec-strict-examples"), (tolerates30Keywords, "--spec-tolerate"),
                           (failsOnViolations, "--spec-errors"), (!mockedPaths.isEmpty, "--spec-mock-missing")]
                .first(where: \.0)?.1 {
                throw UsageError(message: "\(flag) needs --spec FILE")
            }
            return
        }
        if replay, !upstream { throw UsageError(message: "--spec and --replay both answer every request: choose one (or add --upstream, whose forwarded misses the document checks)") }
        if !upstream, let flag = [(failsOnViolations, "--spec-errors"), (!mockedPaths.isEmpty, "--spec-mock-missing")].first(where: \.0)?.1 {
            throw UsageError(message: "\(flag) holds an upstream to the document: it needs --upstream URL too")
        }
    }

    /// The serving options the flags ask for.
    var serving: OpenAPISpec.Options {
        var options = OpenAPISpec.Options()
        options.validatesRequests = validates
        options.stateful = !stateless
        options.dynamic = dynamic
        options.examplesMustMatch = strictExamples
        options.tolerates30Keywords = tolerates30Keywords
        options.failsOnViolations = failsOnViolations
        options.mockedPaths = mockedPaths
        return options
    }
}
