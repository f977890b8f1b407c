/// Walks a command's arguments: each one with its flag, and the flag's value written inline (`--port=0`) or as the
/// next argument. Shared by the server's flags and the subcommands'.
struct ArgumentCursor {
    private var remaining: ArraySlice<String>
    /// The current argument's inline value (after `=`), if it had one.
    private var inlineValue: String?
    /// The current flag, for the message when its value is missing.
    private var flag = ""

    init(_ arguments: [String]) {
        remaining = arguments[...]
    }

    /// The next argument as given, and its flag (the argument without an inline `=value`); nil after the last.
    mutating func next() -> (argument: String, flag: String)? {
        guard let argument = remaining.popFirst() else { return nil }
        flag = argument
        inlineValue = nil
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            flag = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        return (argument, flag)
    }

    /// The current flag's value: the inline one, else the next argument unless it is another flag.
    mutating func value() throws(CommandLineOptions.UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw .init(message: "\(flag) needs a value") }
        return next
    }
}
