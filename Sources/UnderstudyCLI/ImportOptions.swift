import Foundation
import UnderstudyRecording

/// `understudy import FILE.har --to DIR [--no-redact] [--redact-field NAME]... [--ignore-query NAME]...`.
struct ImportOptions: Equatable {
    /// The HAR file.
    var file: String
    /// The recording directory written into.
    var directory: String
    /// Whether secrets become placeholders (the default, as when recording).
    var redacts = true
    /// JSON fields redacted besides the default ones.
    var redactedFields: [String] = []
    /// Query parameters left out of matching.
    var ignoredQueryParameters: [String] = []
    /// Which hosts' entries are imported (`--host NAME`, `--all-hosts`; the main host by default).
    var hosts = HARReadOptions.Hosts.main
    /// `--headers-only`: entries whose body the exporter left out are imported with an empty body.
    var keepsEntriesWithoutBodies = false
    /// `--help`: print the usage and do nothing else.
    var showHelp = false

    static let usage = """
        Usage: understudy import FILE.har --to DIR [--host NAME | --all-hosts] [--headers-only] [--no-redact]
                                 [--redact-field NAME]... [--ignore-query NAME]...

        Turns a HAR 1.2 file (Chrome DevTools' "Save all as HAR", Pulse, Proxyman, Charles) into a recording that
        `understudy --replay DIR` serves. Prints each file written and each entry left out, with the reason.
        Exits 0 when something was imported, 1 when the file is not a HAR, nothing in it could be used or DIR
        cannot be written, 2 on a usage error.

          --to DIR            the recording directory (created when missing; a recording already there is added to)
          --host NAME         import the entries on host NAME (by default: the host most entries are on, the
                              others listed as skipped, since a replay stands in for one API; every host when
                              several tie for the most)
          --all-hosts         import every host's entries into one recording (the same request to two hosts
                              becomes one sequence)
          --headers-only      import an entry whose body the exporter left out (Firefox's "Response bodies are not
                              included.") with an empty body, noted, instead of skipping it
          --no-redact         keep secrets as they are (by default Authorization, Cookie, Set-Cookie and token-like
                              JSON fields become placeholders that still match on replay)
          --redact-field NAME redact NAME too, in JSON bodies and queries (repeatable)
          --ignore-query NAME leave the query parameter NAME out of matching (repeatable)
        """

    /// Reads the arguments after `import`.
    static func parse(_ arguments: [String]) throws(CommandLineOptions.UsageError) -> ImportOptions {
        var file: String?
        var directory: String?
        var options = ImportOptions(file: "", directory: "")
        var cursor = ArgumentCursor(arguments)
        while case let (argument, flag)? = cursor.next() {
            func value() throws(CommandLineOptions.UsageError) -> String {
                let value = try cursor.value()
                guard !value.isEmpty else { throw .init(message: "\(flag) needs a value") }
                return value
            }
            switch flag {
            case "--to": directory = try value()
            case "--host": options.hosts = .named(try value())
            case "--all-hosts": options.hosts = .all
            case "--headers-only": options.keepsEntriesWithoutBodies = true
            case "--no-redact": options.redacts = false
            case "--redact-field": options.redactedFields.append(try value())
            case "--ignore-query": options.ignoredQueryParameters.append(try value())
            case "--help", "-h": options.showHelp = true
            case _ where argument.hasPrefix("-"):
                throw .init(message: "unknown option '\(argument)' for import")
            default:
                guard file == nil else { throw .init(message: "import takes one HAR file, not '\(file!)' and '\(argument)'") }
                file = argument
            }
        }
        if options.showHelp { return options }
        guard let file else { throw .init(message: "import needs a HAR file") }
        guard let directory else { throw .init(message: "import needs --to DIR, the recording directory to write") }
        options.file = file
        options.directory = directory
        return options
    }
}
