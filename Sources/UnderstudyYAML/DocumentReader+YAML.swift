import UnderstudyOpenAPI

extension DocumentReader {
    /// YAML, by libfyaml: what a loader reads `.yaml` and `.yml` files (and any other but `.json`) with.
    package static let yaml = DocumentReader { bytes in
        let (tree, marks) = try YAMLReader.documentAndPositions(bytes)
        return Parsed(tree: tree) { pointers in
            marks?.positions(of: pointers, in: tree) ?? YAMLReader.positions(of: pointers, in: bytes)
        }
    }
}

extension DocumentReaders {
    /// JSON and YAML.
    package static let jsonAndYAML = DocumentReaders(yaml: .yaml)
}
