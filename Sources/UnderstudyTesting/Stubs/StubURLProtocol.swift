import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking

/// A `URLProtocol` that answers requests for ``StubHost`` hosts from their scripts, with no socket.
///
/// Put it first in `protocolClasses` (``StubHost/sessionConfiguration()`` does): FoundationNetworking asks the
/// classes in order and the first `canInit` wins. It reads the body from `httpBody` (Linux) or
/// `httpBodyStream` (Darwin moves it there).
///
/// Not `Sendable` (FoundationNetworking marks `URLProtocol`'s conformance unavailable); its shared state, the
/// host registry and the stop flag, sits behind `Locked`s.
public final class StubURLProtocol: URLProtocol {
    private struct WeakHost {
        weak var host: StubHost?
    }

    /// The registry of live hosts, held by a class instance: a `static` stored value reached through `withLock`
    /// would be checked for exclusive access before the lock is taken, which ThreadSanitizer reports as a race.
    private final class Registry: Sendable {
        let hosts = Locked<[String: WeakHost]>([:])
    }

    private static let registry = Registry()
    private let stopped = Locked(false)

    static func register(_ host: StubHost) {
        registry.hosts.withLock { $0[host.name] = WeakHost(host: host) }
    }

    static func unregister(_ name: String) {
        registry.hosts.withLock { _ = $0.removeValue(forKey: name) }
    }

    private static func host(for request: URLRequest) -> StubHost? {
        guard let name = request.url?.host?.lowercased() else { return nil }
        return registry.hosts.withLock { $0[name]?.host }
    }

    /// Claims requests whose host belongs to a live ``StubHost``.
    override public class func canInit(with request: URLRequest) -> Bool {
        host(for: request) != nil
    }

    /// The request unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Records the request and replays the host's next reply.
    override public func startLoading() {
        guard let host = Self.host(for: request), let url = request.url else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        let recorded = RecordedRequest(
            method: request.httpMethod ?? "GET",
            url: url,
            headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody ?? request.httpBodyStream.map(Self.read)
        )
        let reply = host.reply(to: recorded)
        if reply.hangs { return }
        if reply.status == 0 {
            client?.urlProtocol(self, didFailWithError: Self.error(reply))
            return
        }
        var headers = reply.headers
        if reply.failure == nil, !reply.staysOpen, !headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            headers["Content-Length"] = String(reply.chunks.reduce(0) { $0 + $1.count })
        }
        guard let response = HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1",
                                             headerFields: headers) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        for chunk in reply.chunks where !stopped.withLock({ $0 }) {
            client?.urlProtocol(self, didLoad: chunk)
        }
        if reply.staysOpen { return }
        if reply.failure != nil {
            client?.urlProtocol(self, didFailWithError: Self.error(reply))
        } else {
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// Stops delivering chunks; the session reports the cancellation itself.
    override public func stopLoading() {
        stopped.withLock { $0 = true }
    }

    private static func error(_ reply: StubResponse) -> URLError {
        let code = reply.failure ?? .unknown
        guard let text = reply.failureDescription else { return URLError(code) }
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: text])
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}
