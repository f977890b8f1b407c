import Foundation
import Understudy
import UnderstudyRecording

/// `understudy spec check FILE`: loads a document as `--spec` would and prints what it finds, for CI.
enum SpecCommand {
    static let usage = """
        Usage: understudy spec check FILE [--strict-examples] [--tolerate 3.0-keywords]
                                          [--recording DIR]... [--har FILE.har]...

        Loads an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON, with every file its $refs reach) as
        `understudy --spec FILE` would, and prints each error and warning as file:line:column with its JSON pointer:
        unresolved $refs, invalid schemas, examples that contradict their schemas. Exits 1 on an error, 0 otherwise.

        With --recording or --har, then holds every exchange of a recording directory (`--record DIR`) or of a HAR
        file to the document, as `understudy --upstream URL --spec FILE` would live, and prints each violation with
        the file and the exchange it is in. Exits 1 on a violation too.

          --strict-examples  an example that contradicts its schema is an error, not a warning
          --tolerate 3.0-keywords
                             read a 3.1 document's OpenAPI 3.0 nullable: true as 3.0 does
          --recording DIR    check the exchanges of a recording (repeatable)
          --har FILE.har     check the entries of a HAR file (repeatable)
          --help             show this help
        """

    /// The exit status: 0 loads (warnings allowed), 1 does not, 2 usage.
    static func run(_ arguments: [String]) -> Int32 {
        var files: [String] = []
        var recordings: [String] = []
        var hars: [String] = []
        var options = OpenAPISpec.Options()
        var arguments = arguments[...]
        if arguments.first == "check" { arguments = arguments.dropFirst() } else if let first = arguments.first, !first.hasPrefix("-") {
            StandardError.say("understudy spec: unknown command '\(first)'\n\n\(usage)")
            return 2
        }
        var pending = Array(arguments)[...]
        while let argument = pending.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage)
                return 0
            case "--strict-examples": options.examplesMustMatch = true
            case "--tolerate", "--recording", "--har":
                guard let value = pending.popFirst(), !value.hasPrefix("-") else {
                    StandardError.say("understudy spec check: \(argument) needs a value\n\n\(usage)")
                    return 2
                }
                if argument == "--recording" { recordings.append(value) } else if argument == "--har" { hars.append(value) } else {
                    guard value == "3.0-keywords" else {
                        StandardError.say("understudy spec check: --tolerate takes 3.0-keywords, not '\(value)'")
                        return 2
                    }
                    options.tolerates30Keywords = true
                }
            case _ where argument.hasPrefix("-"):
                StandardError.say("understudy spec check: unknown option '\(argument)'\n\n\(usage)")
                return 2
            default: files.append(argument)
            }
        }
        guard files.count == 1, let file = files.first else {
            StandardError.say("understudy spec check: give one document\n\n\(usage)")
            return 2
        }
        let started = Date()
        do {
            let spec = try OpenAPISpec(contentsOf: file, options: options)
            for warning in spec.warnings { print(warning) }
            let milliseconds = Int(Date().timeIntervalSince(started) * 1_000)
            print("\(file): OpenAPI \(spec.version), \(spec.operationIDs.count) operations from \(spec.fileCount) file\(spec.fileCount == 1 ? "" : "s"), \(spec.warnings.count) warning\(spec.warnings.count == 1 ? "" : "s"), loaded in \(milliseconds) ms")
            if recordings.isEmpty, hars.isEmpty { return 0 }
            return ExchangeCheck(spec: spec).run(recordings: recordings, hars: hars)
        } catch {
            for finding in error.findings { print(finding) }
            let errors = error.findings.filter { $0.contains(": error: ") }.count
            print("\(file): \(max(errors, 1)) error\(errors == 1 ? "" : "s"): it cannot be served")
            return 1
        }
    }
}
