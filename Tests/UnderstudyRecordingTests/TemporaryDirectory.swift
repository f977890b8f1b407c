import Foundation

/// A fresh directory under the system's temporary one, removed when the value goes.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-recording-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every file below the directory, relative and sorted (hidden ones too).
    func files() -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).filter { relative in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    func text(_ relative: String) -> String {
        (try? String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)) ?? ""
    }

    func write(_ text: String, to relative: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
}

/// Exchanges for the tests, JSON unless said otherwise.
enum Exchanges {
    static let json = [RecordedExchangeHeader("Content-Type", "application/json")]

    static func get(_ path: String, query: [(String, String)] = [], status: Int = 200, body: String = #"{"ok":true}"#,
                    headers: [RecordedExchangeHeader] = []) -> RecordedExchange {
        RecordedExchange(
            request: .init(method: "GET", path: path, query: query.map { .init($0.0, $0.1) }, headers: headers),
            response: .init(status: status, headers: json, body: Array(body.utf8)))
    }

    static func post(_ path: String, body: String, response: String = #"{"ok":true}"#,
                     responseHeaders: [RecordedExchangeHeader] = []) -> RecordedExchange {
        RecordedExchange(
            request: .init(method: "POST", path: path, headers: json, body: Array(body.utf8)),
            response: .init(status: 200, headers: json + responseHeaders, body: Array(response.utf8)))
    }
}

typealias RecordedExchangeHeader = RecordedExchange.Header

import UnderstudyRecording
