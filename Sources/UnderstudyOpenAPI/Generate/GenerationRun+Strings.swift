import Foundation

extension GenerationRun {
    /// A string: its format's form, or one its pattern matches, or words, within its lengths.
    mutating func string(_ node: SchemaNode, name: String) -> String {
        if let pattern = node.pattern {
            var sampler = RegexSampler(random: isStatic ? SeededRandom(seed: 1).derived(name) : random.derived(name))
            if let sample = sampler.sample(pattern.source), pattern.matches(sample), fits(sample, node) { return sample }
        }
        var text = node.format.flatMap { formatted($0, name: name) } ?? (isStatic ? "string" : words())
        let minimum = node.minLength ?? 0
        let maximum = node.maxLength ?? Int.max
        if text.unicodeScalars.count > maximum {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(maximum)))
        }
        while text.unicodeScalars.count < minimum {
            text += isStatic ? "s" : String(GenerationRun.letters.randomElement(using: &random) ?? "a")
        }
        return text
    }

    private func fits(_ text: String, _ node: SchemaNode) -> Bool {
        let length = text.unicodeScalars.count
        return length >= (node.minLength ?? 0) && length <= (node.maxLength ?? Int.max)
    }

    private mutating func words() -> String {
        (0..<random.int(in: 1...2)).map { _ in word() }.joined(separator: " ")
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz")

    /// A value of a format, fixed (static) or drawn.
    private mutating func formatted(_ format: String, name: String) -> String? {
        switch format {
        case "date-time": return isStatic ? "2024-01-15T09:30:00Z" : "\(date())T\(time())Z"
        case "date": return isStatic ? "2024-01-15" : date()
        case "time": return isStatic ? "09:30:00Z" : time() + "Z"
        case "email", "idn-email": return isStatic ? "user@example.com" : "\(word()).\(word())@example.com"
        case "uuid": return isStatic ? "3fa85f64-5717-4562-b3fc-2c963f66afa6" : uuid()
        case "uri", "url", "iri": return isStatic ? "https://example.com" : "https://example.com/\(word())"
        case "uri-reference", "iri-reference": return isStatic ? "/example" : "/\(word())/\(random.int(in: 1...999))"
        case "hostname", "idn-hostname": return isStatic ? "example.com" : "\(word()).example.com"
        case "ipv4": return isStatic ? "192.0.2.1" : "192.0.2.\(random.int(in: 1...254))"
        case "ipv6": return isStatic ? "2001:db8::1" : "2001:db8::\(String(random.int(in: 1...0xffff), radix: 16))"
        case "byte": return Data((0..<(isStatic ? 6 : random.int(in: 3...12))).map { _ in UInt8(isStatic ? 65 : random.int(in: 0...255)) }).base64EncodedString()
        case "binary": return isStatic ? "binary" : words()
        case "password": return isStatic ? "pa$$word" : "\(word())-\(random.int(in: 1_000...9_999))"
        case "duration": return isStatic ? "P3D" : "PT\(random.int(in: 1...59))M"
        case "json-pointer": return "/\(isStatic ? "path" : word())"
        case "regex": return "^[a-z]+$"
        case "int32", "int64": return isStatic ? "0" : String(random.int(in: 0...100_000))
        default: return nil
        }
    }

    private mutating func date() -> String {
        let year = random.int(in: 2020...2026)
        let month = random.int(in: 1...12)
        let day = random.int(in: 1...28)
        return "\(year)-\(Self.pad(month))-\(Self.pad(day))"
    }

    private mutating func time() -> String {
        "\(Self.pad(random.int(in: 0...23))):\(Self.pad(random.int(in: 0...59))):\(Self.pad(random.int(in: 0...59)))"
    }

    private static func pad(_ number: Int) -> String {
        number < 10 ? "0\(number)" : String(number)
    }

    /// A version-4 UUID from the draws, lower-case.
    private mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

extension SeededRandom: RandomNumberGenerator {}
