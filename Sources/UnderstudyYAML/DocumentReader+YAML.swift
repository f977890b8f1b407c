import UnderstudyOpenAPI

extension DocumentReader {
    /// YAML, by libfyaml: what a loader reads `.yaml` and `.yml` files (and any other but `.json`) with.
    package static let yaml = DocumentReader(parse: { try YAMLReader.document($0) },
                                             position: { bytes, _, pointer in YAMLReader.position(of: pointer, in: bytes) })
}

extension DocumentReaders {
    /// JSON and YAML.
    package static let jsonAndYAML = DocumentReaders(yaml: .yaml)
}
