import Foundation
import Understudy
import UnderstudyRecording

/// `understudy spec check FILE --recording DIR --har FILE.har`: every exchange of recordings and HAR files held to the
/// document, each violation printed under the file and exchange it is in.
struct ExchangeCheck {
    let spec: OpenAPISpec

    /// The exit status: 0 every exchange keeps the document, 1 one does not, 2 a file could not be read.
    func run(recordings: [String], hars: [String]) -> Int32 {
        var checked = 0
        var broken = 0
        var violations = 0
        func check(_ exchange: RecordedExchange, at place: String) {
            checked += 1
            let found = spec.violations(of: exchange)
            guard !found.isEmpty else { return }
            broken += 1
            violations += found.count
            let request = exchange.request
            print("\(place): \(request.method) \(request.path) → \(exchange.response.status)")
            for line in found { print("  \(line)") }
        }
        for directory in recordings {
            let recording: Recording
            do {
                recording = try Recording(contentsOf: URL(fileURLWithPath: directory))
            } catch {
                StandardError.say("understudy spec check: cannot read the recording \(directory): \(error)")
                return 2
            }
            for entry in recording.entries {
                for (index, response) in entry.responses.enumerated() {
                    let place = entry.responses.count == 1 ? entry.file : "\(entry.file) (answer \(index + 1) of \(entry.responses.count))"
                    check(RecordedExchange(request: entry.request, response: response), at: place)
                }
            }
        }
        for file in hars {
            let archive: HARArchive
            do {
                archive = try HARArchive.read([UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
            } catch {
                StandardError.say("understudy spec check: cannot read the HAR \(file): \(error)")
                return 2
            }
            for exchange in archive.exchanges { check(exchange.recorded, at: "\(file) entry \(exchange.entryIndex)") }
        }
        print("understudy spec check: \(checked) exchange\(checked == 1 ? "" : "s") checked, "
              + (violations == 0 ? "every one keeps the document" : "\(violations) violation\(violations == 1 ? "" : "s") in \(broken) exchange\(broken == 1 ? "" : "s")"))
        return violations == 0 ? 0 : 1
    }
}
