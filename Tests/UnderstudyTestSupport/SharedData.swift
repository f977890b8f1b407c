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

    /// The real HAR files of ten exporters (`shared/har_real/files`, listed in its SOURCES.md), by file name.
    package static let harFiles = [
        "charles__mitmproxy-mitmproxy__charles.har", "chrome-devtools-bom__mitmproxy-mitmproxy__with-bom.har",
        "chrome-devtools__mitmproxy-mitmproxy__chrome.har", "chrome-devtools__sitespeedio-pagexray__run.sitespeed.io.har",
        "firefox__mitmproxy-mitmproxy__firefox.har", "mitmproxy-export__mitmproxy-mitmproxy__diff_data.har",
        "playwright__microsoft-playwright__har-redirect.har", "pollyjs__Netflix-pollyjs__jest-puppeteer.har",
        "proxyman__mswjs-source__request-parameters.har", "safari-webinspector__mitmproxy-mitmproxy__safari.har",
    ]

    /// `shared/har_real/files/<name>`.
    package static func har(_ name: String) -> URL {
        root.appendingPathComponent("har_real/files").appendingPathComponent(name)
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
