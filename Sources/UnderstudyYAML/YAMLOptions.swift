/// The limits a YAML text is read within. libyaml 0.2.5 has none of its own: a document nested a million deep or
/// an alias bomb (`&a [*b, *b, …]` ten times over) would take the stack or the memory, so both are bounded here.
package struct YAMLOptions: Sendable {
    /// How deep mappings and sequences may nest.
    package var maximumDepth = 512
    /// How many nodes expanding aliases may add in all: a document that reuses a schema through anchors stays far
    /// under it, a "billion laughs" reaches it within microseconds.
    package var maximumAliasNodes = 1_000_000
    /// Whether `<<` merges the mappings it names into its own (a YAML 1.1 type, not in 1.2); off, `<<` is a key
    /// like any other.
    package var mergeKeys = false

    package init() {}
}
