import Foundation
import Understudy

/// `understudy spec check FILE`: loads a document as `--spec` would and prints what it finds, for CI.
enum SpecCommand {
    static let usage = """
        Usage: understudy spec check FILE [--strict-examples]

        Loads an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON, with every file its $refs reach) as
        `understudy --spec FILE` would, and prints each error and warning as file:line:column with its JSON pointer:
        unresolved $refs, invalid schemas, examples that contradict their schemas. Exits 1 on an error, 0 otherwise.

          --strict-examples  an example that contradicts its schema is an error, not a warning
          --help             show this help
        """

    /// The exit status: 0 loads (warnings allowed), 1 does not, 2 usage.
    static func run(_ arguments: [String]) -> Int32 {
        var files: [String] = []
        var options = OpenAPISpec.Options()
        var arguments = arguments[...]
        if arguments.first == "check" { arguments = arguments.dropFirst() } else if let first = arguments.first, !first.hasPrefix("-") {
            StandardError.say("understudy spec: unknown command '\(first)'\n\n\(usage)")
            return 2
        }
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                print(usage)
                return 0
            case "--strict-examples": options.examplesMustMatch = true
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
            return 0
        } catch {
            for finding in error.findings { print(finding) }
            let errors = error.findings.filter { $0.contains(": error: ") }.count
            print("\(file): \(max(errors, 1)) error\(errors == 1 ? "" : "s"): it cannot be served")
            return 1
        }
    }
}
