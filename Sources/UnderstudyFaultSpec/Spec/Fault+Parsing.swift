extension Fault {
    /// Reads a spec in the header grammar, e.g. `status=503; retry-after=1` or a rule's `fault` from the admin API.
    ///
    /// It is the server's own reader (names in any case, `2kB/s`, `1.5s`, `malformed=json`,
    /// `reset=before-headers`), so a directive the server would refuse on its own (`status=302`, `delay=2m`) is
    /// refused here with the server's words and position. How directives combine is the server's to check, when the
    /// spec is used: it refuses clashes such as `status=503; empty`, a directive given twice, and `message` with no
    /// status.
    ///
    /// - Parameter text: The spec; an empty one is ``none``.
    /// - Throws: ``FaultSpecError`` naming the directive, its 1-based byte position and the problem.
    public init(parsing text: String) throws(FaultSpecError) {
        self.init(directives: try FaultGrammar.parse(text, checkingCombinations: false).map(\.directive))
    }
}
