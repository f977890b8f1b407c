import Foundation
import Testing
@testable import Understudy
import UnderstudyFaultSpec
import UnderstudyJSON

/// `Fault.TLS` as JSON: what `UnderstudyControl` sends is what the server's one reader of TLS faults (the admin
/// API's and a scenario's) reads back, for every kind and both ways of choosing handshakes.
@Suite struct FaultTLSTests {
    static let examples: [(Fault.TLS, String)] = TLSFaultKind.allCases.flatMap { kind in [
        (Fault.TLS(kind, times: 3), #"{"fault":"\#(kind.rawValue)","times":3}"#),
        (Fault.TLS(kind, serverName: "api.localhost"), #"{"fault":"\#(kind.rawValue)","serverName":"api.localhost"}"#),
    ] }

    @Test(arguments: examples)
    func encodesAsTheServerReadsIt(fault: Fault.TLS, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(fault), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(Fault.TLS.self, from: Data(json.utf8)) == fault)
        guard case .object(let fields) = try JSONParser.parse(Array(json.utf8)) else { throw APIError(500, "not an object") }
        #expect(try FaultJSON.tlsFault(fields) == fault)
        #expect(AdminJSON.tlsFault(fault) == .object(fields))
    }

    @Test func neitherTimesNorANameIsTheNextHandshakeAndBothAreRefused() throws {
        let next = try JSONDecoder().decode(Fault.TLS.self, from: Data(#"{"fault":"reset"}"#.utf8))
        #expect(next == Fault.TLS(.reset))
        #expect(next.description == "reset × 1")
        #expect(Fault.TLS(.expired, serverName: "localhost").description == "expired for localhost")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Fault.TLS.self, from: Data(#"{"fault":"reset","times":1,"serverName":"a.localhost"}"#.utf8))
        }
    }

    @Test func theFixedNamesAreTheKindsOwn() {
        #expect(TLSFaultKind(serverName: "Expired.LOCALHOST") == .expired)
        #expect(TLSFaultKind(serverName: "untrusted.localhost") == .unknownIssuer)
        #expect(TLSFaultKind(serverName: "localhost") == nil)
        #expect(TLSFaultKind.allCases.filter(\.presentsServerNames) == [.expired, .unknownIssuer, .selfSigned, .wrongKey])
    }
}
