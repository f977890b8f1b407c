import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The fault Understudy injects into this one request, carried in `X-Understudy-Fault`; nil removes it.
    ///
    /// ```swift
    /// var request = URLRequest(url: productURL)
    /// request.understudyFault = .status(503, retryAfter: .seconds(1))
    /// ```
    public var understudyFault: Fault? {
        get { value(forHTTPHeaderField: UnderstudyHeader.fault).flatMap { try? Fault(parsing: $0) } }
        set { setValue(newValue.flatMap { $0.isEmpty ? nil : $0.text }, forHTTPHeaderField: UnderstudyHeader.fault) }
    }

    /// Puts a fault on this one request (`X-Understudy-Fault`).
    ///
    /// - Parameter fault: The fault; ``Fault/none`` removes the header.
    public mutating func setFault(_ fault: Fault) {
        understudyFault = fault
    }

    /// The session whose rules, seed and journal this request belongs to (`X-Understudy-Session`); nil removes it.
    public var understudySession: String? {
        get { value(forHTTPHeaderField: UnderstudyHeader.session) }
        set { setValue(newValue, forHTTPHeaderField: UnderstudyHeader.session) }
    }

    /// Which response a served OpenAPI document answers this request with, carried in `Prefer`; nil removes it.
    ///
    /// ```swift
    /// request.specPreference = .code(422)
    /// ```
    public var specPreference: SpecPreference? {
        get { value(forHTTPHeaderField: "Prefer").flatMap(SpecPreference.init(headerValue:)) }
        set { setValue(newValue.flatMap { $0.headerValue.isEmpty ? nil : $0.headerValue }, forHTTPHeaderField: "Prefer") }
    }
}
