import Foundation

/// The public test data the project reads and never copies: `../shared` beside the repository (JSON-Schema-Test-
/// Suite, yaml-test-suite, real OpenAPI documents, real HAR files), or wherever `UNDERSTUDY_SHARED` says.
package enum SharedData {
    /// The `shared` folder.
    package static var root: URL {
        if let path = ProcessInfo.processInfo.environment["UNDERSTUDY_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // Tests/UnderstudyTestSupport/SharedData.swift → the repository → its parent.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// `shared/conformance/<path>`.
    package static func conformance(_ path: String) -> URL {
        root.appendingPathComponent("conformance").appendingPathComponent(path)
    }

    /// The bytes of `url`, or a failure that names the file and where the data is looked for.
    package static func bytes(_ url: URL) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw SharedDataMissing(path: url.path)
        }
    }
}

/// The shared test data is not where the tests look for it.
package struct SharedDataMissing: Error, CustomStringConvertible {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    package var description: String {
        "cannot read \(path): the tests read public test data from ../shared beside the repository (or UNDERSTUDY_SHARED)"
    }
}
