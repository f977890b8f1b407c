import Foundation
import UnderstudyRecording

/// The recording writer alone: `count` distinct exchanges with JSON bodies of about `bodyBytes` handed over as a
/// proxy under load hands them, then the time until all are on disk: exchanges/s and MB/s.
struct RecorderThroughput {
    let count: Int
    let bodyBytes: Int

    func run() throws -> [String: Any] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-bench-recorder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try RecordingWriter(directory: directory)
        // A product list's shape: objects with strings and numbers, about `bodyBytes` in all.
        let item = #"{"id":1,"title":"Essence Mascara Lash Princess","description":"A popular mascara known for its volumizing and lengthening effects.","price":9.99,"rating":4.94,"tags":["beauty","mascara"],"stock":5}"#
        let items = Array(repeating: item, count: max(1, bodyBytes / item.utf8.count)).joined(separator: ",")
        let body = Array(#"{"products":[\#(items)],"total":194,"skip":0,"limit":30}"#.utf8)
        let headers: [RecordedExchange.Header] = [.init("Content-Type", "application/json; charset=utf-8"),
                                                  .init("ETag", #"W/"7530-abc""#)]
        let started = ContinuousClock.now
        for index in 0..<count {
            writer.append(RecordedExchange(
                request: .init(method: "GET", path: "/products", query: [.init("skip", String(index))],
                               headers: [.init("Accept", "application/json")]),
                response: .init(status: 200, headers: headers, body: body)))
        }
        let handedOver = ContinuousClock.now - started
        writer.flush()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let written = count - writer.failures.count
        return ["exchanges": count, "written": written, "dropped": writer.failures.count, "body_bytes": body.count,
                "seconds": seconds, "exchanges_per_second": Double(written) / seconds,
                "mb_per_second": Double(written * body.count) / seconds / 1e6,
                "hand_over_ms": Double(handedOver.components.attoseconds) / 1e15 + Double(handedOver.components.seconds) * 1e3]
    }
}
