import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Downloads an endpoint's body to a file, moved to `destination` before the transfer completes.
    ///
    /// The body streams through the client's session delegate into a temporary file, so no download delegate is
    /// involved: on Linux, FoundationNetworking writes every chunk twice when `download(for:delegate:)` is given
    /// a `URLSessionDownloadDelegate`. The size written is checked against `Content-Length` (when the body is
    /// not content-encoded), so a short or doubled file fails as ``APIError/Kind/connectionLost`` instead of
    /// landing at the destination. An existing file at `destination` is replaced. Downloads are not retried.
    ///
    /// - Parameters:
    ///   - endpoint: What to download; its `Response` type is not used.
    ///   - destination: The file URL to move the download to.
    /// - Returns: The transfer, already started; its value is `destination`.
    public func download<Response>(_ endpoint: Endpoint<Response>, to destination: URL) -> Transfer<URL> {
        let (progress, reporter) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let request = Result { () throws(APIError) -> URLRequest in
            try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
        }
        let authenticated = endpoint.requiresAuthentication
        let task = Task { [self] () throws -> URL in
            defer { reporter.finish() }
            let streamed = try await stream(try request.get(), authenticated: authenticated)
            let expected = streamed.response.expectedContentLength
            let temporary = FileManager.default.temporaryDirectory
                .appendingPathComponent("understudy-\(UUID().uuidString).download")
            defer { try? FileManager.default.removeItem(at: temporary) }
            let written = try await Self.write(streamed.bytes, to: temporary) { written in
                reporter.yield(TransferProgress(completedBytes: written, expectedBytes: expected >= 0 ? expected : nil))
            }
            let encoded = streamed.response.value(forHTTPHeaderField: "Content-Encoding")
                .map { $0.lowercased() != "identity" } ?? false
            if expected >= 0, !encoded, written != expected {
                var error = APIError(.connectionLost, underlying: "received \(written) of \(expected) bytes")
                error.url = streamed.response.url
                throw error
            }
            do {
                if FileManager.default.fileExists(atPath: destination.path) {
                    try FileManager.default.removeItem(at: destination)
                }
                try FileManager.default.moveItem(at: temporary, to: destination)
            } catch {
                throw APIError(.transportFailed, underlying: "could not move the download: \(error)")
            }
            return destination
        }
        return Transfer(progress: progress, task: task)
    }

    /// Appends every chunk to a new file; returns the byte count.
    private static func write(
        _ bytes: ByteStream,
        to file: URL,
        progress: (Int64) -> Void
    ) async throws -> Int64 {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw APIError(.transportFailed, underlying: "could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var written: Int64 = 0
        for try await chunk in bytes {
            try handle.write(contentsOf: chunk)
            written += Int64(chunk.count)
            progress(written)
        }
        return written
    }
}
