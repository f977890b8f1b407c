import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyLocking

extension SessionRouter {
    /// Classifies a send's error; a cancellation caused by a refused pin (for `host`) is ``APIError/Kind/pinMismatch``.
    /// On Apple platforms an untrusted certificate's attached trust is evaluated again to say why (expired, wrong
    /// host): `SecTrustEvaluateWithError` may block, and the client's sends never run on the main thread.
    func classify(_ error: any Error, host: String?) -> APIError {
        var failure = APIError.classify(error)
        #if canImport(Security)
        if failure.kind == .untrustedCertificate, let trust = (error as? URLError)?.failureURLPeerTrust,
           let kind = ServerTrust.refusal(of: trust) {
            failure.kind = kind
        }
        #endif
        guard failure.kind == .cancelled, let host else { return failure }
        let refused = pinRejections.withLock { rejections -> Bool in
            guard let count = rejections[host] else { return false }
            rejections[host] = count > 1 ? count - 1 : nil
            return true
        }
        if refused {
            failure.kind = .pinMismatch
            failure.underlying = "no key in \(host)'s certificate chain is pinned"
        }
        return failure
    }

    #if canImport(Security)
    /// The server-trust challenge, when keys are pinned: a certificate the system refuses is left to it (so the error
    /// names why); a trusted one must have a pinned key in its chain, or the challenge is cancelled.
    func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let pins = pinnedKeys,
              challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
              let trust = challenge.protectionSpace.serverTrust,
              ServerTrust.refusal(of: trust) == nil,
              !ServerTrust.matches(trust, pins) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        pinRejections.withLock { $0[challenge.protectionSpace.host, default: 0] += 1 }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
    #endif
}
