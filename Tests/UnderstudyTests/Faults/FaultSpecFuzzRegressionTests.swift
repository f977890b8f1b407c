import Testing
@testable import Understudy
@testable import UnderstudyFaultSpec

/// Inputs the fuzzers found; each must be answered without a crash.
@Suite struct FaultSpecFuzzRegressionTests {
    @Test func invalidUTF8AndNULsInDirectives() {
        let bytes: [UInt8] = [100, 101, 108, 97, 121, 61, 50, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 0, 170, 0, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 23, 151, 151, 151, 151, 151, 151, 151, 151, 108, 97, 121, 61, 50, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 0, 170, 0, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 255, 255, 255, 251, 251, 251, 251, 251, 251, 251, 251, 255, 255, 255, 255, 18, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 0, 0, 0, 0, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 0, 101, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 255, 255, 255, 251, 251, 251, 251, 251, 251, 251, 251, 255, 255, 255, 255, 18, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 151, 0, 0, 0, 0, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 0, 151, 151, 151, 151, 151, 151, 151, 8, 64, 0, 0, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 101, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 0, 170, 0, 151, 147, 151, 151, 255, 100, 110, 105, 108, 102, 102, 111, 0, 0, 61, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 46, 0, 255, 255, 255, 45, 56, 114, 97, 116, 101, 114, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 48, 48, 109, 115, 59, 100, 101, 108, 97, 121, 61, 49, 49]
        let text = String(decoding: bytes, as: UTF8.self)
        let spec = try? FaultSpec(parsing: text)
        if let spec {
            #expect((try? FaultSpec(parsing: spec.text)) == spec)
        }
    }
}

/// The fuzzer's second find: a value starting with a combining mark, once `=` was put back in front of it, made
/// one Character with it, so the normalised text no longer parsed.
@Suite struct FaultSpecGraphemeTests {
    @Test(arguments: ["status=500; message=\u{0B}\u{05B9}x", "message=\u{0301}; status=503",
                      "delay=1s;status=500;message=\u{0301}\u{0301}"])
    func normalisedTextParsesToTheSameSpec(text: String) throws {
        let spec = try FaultSpec(parsing: text)
        #expect(try FaultSpec(parsing: spec.text) == spec)
    }
}

@Suite struct DurationTests {
    /// The fuzzer's find in CI: a rate past Int's range trapped when it was converted before the range check.
    @Test(arguments: ["rate=99999999999999999999B/s", "rate=\(String(repeating: "9", count: 400))MB/s", "rate=0.0001B/s"])
    func ratesOutOfRangeAreRefusedNotTrapped(spec: String) {
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: spec) }
    }


    @Test func numbersAreStrictlyDecimal() {
        #expect(FaultGrammar.decimal("1.5") == 1.5)
        #expect(FaultGrammar.decimal("1.\0junk") == nil)
        #expect(FaultGrammar.decimal(".") == nil)
        #expect(FaultGrammar.decimal("1.2.3") == nil)
        #expect(FaultGrammar.decimal("1e3") == nil)
        #expect(throws: FaultSpecError.self) { try FaultSpec(parsing: "delay=1.\u{0}5ms") }
    }
}
