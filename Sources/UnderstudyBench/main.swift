import Foundation

// Benchmarks that need Swift in-process: `make bench` runs them in a release build and reads the JSON line each
// prints. Not a test: timings belong in benchmarks, never in the test suite.
//
//   UnderstudyBench client [--requests 2000] [--rounds 5]   UnderstudyClient vs raw URLSession + JSONDecoder
//   UnderstudyBench start [--count 50]                       in-process start to first 200, and stop
//   UnderstudyBench churn [--count 200]                      descriptors before and after many starts and stops
//   UnderstudyBench recorder [--count 2000] [--bytes 30000]  the recording writer's exchanges/s and MB/s

/// A measurement that could not be taken.
struct BenchError: Error, CustomStringConvertible {
    let description: String
}

func option(_ name: String, default value: Int) -> Int {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count,
          let number = Int(CommandLine.arguments[index + 1]), number > 0 else { return value }
    return number
}

func printJSON(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    print(String(decoding: data, as: UTF8.self))
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
do {
    switch mode {
    case "client":
        let result = try await ClientOverhead(requests: option("--requests", default: 2_000),
                                              rounds: option("--rounds", default: 5)).run()
        printJSON(result)
    case "start":
        printJSON(try InProcessStart(count: option("--count", default: 50)).run())
    case "churn":
        printJSON(try ServerChurn(count: option("--count", default: 200)).run())
    case "recorder":
        printJSON(try RecorderThroughput(count: option("--count", default: 2_000), bodyBytes: option("--bytes", default: 30_000)).run())
    default:
        FileHandle.standardError.write(Data("usage: UnderstudyBench client [--requests N] [--rounds N] | start [--count N] | churn [--count N] | recorder [--count N] [--bytes N]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("UnderstudyBench: \(error)\n".utf8))
    exit(1)
}
