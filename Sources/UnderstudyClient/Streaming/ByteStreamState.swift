import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed task's lifecycle as a value: delegate events go in, actions come out.
///
/// The head (the `HTTPURLResponse`) is handed over first and only for 2xx; body bytes then flow to the stream.
/// A non-2xx response never reaches the stream: its body is buffered (up to a limit) to build the ``APIError``.
/// FoundationNetworking ignores the `.cancel` response disposition, so over the limit the owner cancels the task.
struct ByteStreamState<Head> {
    enum Action {
        case none
        /// Resume the caller waiting for the head.
        case deliverHead(Head, HTTPURLResponse)
        /// Pass bytes to the body stream.
        case yield(Data)
        /// Fail the caller waiting for the head.
        case failHead(Head, APIError)
        /// End the body stream, with an error or cleanly.
        case finishBody(APIError?)
        /// The error body is too large to keep: cancel the task (completion then fails the head).
        case cancelTask
    }

    private enum Phase {
        case awaitingHead(Head)
        case streaming
        case rejecting(Head, HTTPURLResponse, Data)
        case done
    }

    private var phase: Phase
    private let errorBodyLimit: Int

    init(head: Head, errorBodyLimit: Int = 64 << 10) {
        phase = .awaitingHead(head)
        self.errorBodyLimit = errorBodyLimit
    }

    mutating func receive(_ response: URLResponse) -> Action {
        switch phase {
        case .awaitingHead(let head):
            guard let http = response as? HTTPURLResponse else {
                phase = .done
                return .failHead(head, APIError(.invalidResponse, underlying: "not an HTTP response"))
            }
            if (200..<300).contains(http.statusCode) {
                phase = .streaming
                return .deliverHead(head, http)
            }
            phase = .rejecting(head, http, Data())
            return .none
        default:
            // A second response (after a redirect, say) changes nothing once the head is out.
            return .none
        }
    }

    mutating func receive(_ data: Data) -> Action {
        switch phase {
        case .streaming:
            return .yield(data)
        case .rejecting(let head, let response, var body):
            guard body.count + data.count <= errorBodyLimit else { return .cancelTask }
            phase = .done  // drop the stored copy so the append below does not copy the buffer
            body.append(data)
            phase = .rejecting(head, response, body)
            return .none
        default:
            return .none
        }
    }

    mutating func complete(_ error: (any Error)?) -> Action {
        switch phase {
        case .awaitingHead(let head):
            phase = .done
            let failure = error.map(APIError.classify) ?? APIError(.invalidResponse, underlying: "no response")
            return .failHead(head, failure)
        case .streaming:
            phase = .done
            return .finishBody(error.map(APIError.classify))
        case .rejecting(let head, let response, let body):
            phase = .done
            // Whether or not the body arrived in full, the status is the error the caller needs.
            let failure = APIError.classify(response, body: body) ?? APIError(.invalidResponse)
            return .failHead(head, failure)
        case .done:
            return .none
        }
    }
}
