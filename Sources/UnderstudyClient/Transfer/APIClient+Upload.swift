import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Uploads a body to an endpoint and decodes its reply, reporting bytes sent as progress.
    ///
    /// The source replaces the endpoint's own ``Endpoint/body``. The `Content-Type` is `contentType` when given,
    /// else the endpoint's header (or its body's), else `application/octet-stream`: without one, libcurl would
    /// label the bytes `application/x-www-form-urlencoded`. Uploads are not retried.
    ///
    /// - Parameters:
    ///   - endpoint: Where to send, usually POST or PUT.
    ///   - source: The bytes or file to send.
    ///   - contentType: The body's media type, e.g. `application/json`.
    /// - Returns: The transfer, already started; its value is the decoded reply.
    public func upload<Response>(_ endpoint: Endpoint<Response>, from source: UploadSource,
                                 contentType: String? = nil) -> Transfer<Response> {
        let (progress, reporter) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let built = Result { () throws(APIError) -> URLRequest in
            var request = try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
            request.httpBody = nil
            if let contentType {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            } else if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            }
            return request
        }
        let decoder = configuration.decoder
        let task = Task { [self] () throws -> Response in
            defer { reporter.finish() }
            var request = try built.get()
            if endpoint.requiresAuthentication, let credential = await configuration.auth?.currentCredential() {
                request = Self.authorize(request, with: credential)
            }
            let body: StreamBody = switch source {
            case .data(let data): .data(data)
            case .file(let url): .file(url)
            }
            let streamed = try await openStream(request, body: body) { sent, expected in
                reporter.yield(TransferProgress(completedBytes: sent, expectedBytes: expected > 0 ? expected : nil))
            }
            var data = Data()
            for try await chunk in streamed.bytes { data.append(chunk) }
            do throws(APIError) {
                return try endpoint.decode(data, decoder: decoder)
            } catch {
                throw error.tagged(method: endpoint.method, url: request.url, attempts: 1)
            }
        }
        return Transfer(progress: progress, task: task)
    }
}
