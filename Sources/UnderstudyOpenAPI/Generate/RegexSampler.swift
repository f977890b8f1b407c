/// Makes a string a regular expression matches, for `pattern` and `patternProperties`: literals, escapes (`\d`,
/// `\w`, `\s`, `\.`…), classes and ranges (negated ones too), groups with alternation, and every quantifier
/// (unbounded ones kept short). What it cannot read (lookarounds, backreferences) gives nil, and the caller falls
/// back; the caller also checks what comes out against the pattern itself.
struct RegexSampler {
    private var random: SeededRandom
    private var characters: [Character] = []
    private var index = 0

    init(random: SeededRandom) {
        self.random = random
    }

    mutating func sample(_ pattern: String) -> String? {
        characters = Array(pattern)
        index = 0
        guard let text = alternation(), index == characters.count else { return nil }
        return text
    }

    private var atEnd: Bool { index >= characters.count }
    private var current: Character? { atEnd ? nil : characters[index] }

    private mutating func alternation() -> String? {
        var branches: [String] = []
        while true {
            guard let branch = sequence() else { return nil }
            branches.append(branch)
            guard current == "|" else { break }
            index += 1
        }
        return random.pick(branches)
    }

    private mutating func sequence() -> String? {
        var text = ""
        while let character = current, character != "|", character != ")" {
            guard var atom = atom() else { return nil }
            guard let (low, high) = quantifier() else { return nil }
            if (low, high) != (1, 1) {
                // A repetition is kept short (a pattern that asks for thousands gives a string the caller checks).
                let count = random.int(in: min(low, 256)...min(max(low, high), 256))
                var repeated = ""
                for offset in 0..<count {
                    repeated += offset == 0 ? atom.text : (atom.regenerate(&self) ?? atom.text)
                }
                atom.text = repeated
            }
            text += atom.text
        }
        return text
    }

    /// What one atom made, and how to make it again (a class draws a new character each time).
    private struct Atom {
        var text: String
        var source: Range<Int>

        mutating func regenerate(_ sampler: inout RegexSampler) -> String? {
            var copy = RegexSampler(random: sampler.random.derived(String(sampler.index)))
            copy.characters = Array(sampler.characters[source])
            copy.index = 0
            sampler.random = sampler.random.derived("next")
            return copy.atom()?.text
        }
    }

    private mutating func atom() -> Atom? {
        let start = index
        guard let character = current else { return nil }
        index += 1
        let text: String?
        switch character {
        case "^", "$": text = ""
        case ".": text = String(random.pick(RegexSampler.printable))
        case "(":
            if current == "?" {
                // Only a non-capturing group is read; lookarounds and named groups' syntax are not.
                guard index + 1 < characters.count, characters[index + 1] == ":" else { return nil }
                index += 2
            }
            let inner = alternation()
            guard current == ")" else { return nil }
            index += 1
            text = inner
        case "[": text = characterClass().map { String($0) }
        case "\\":
            // A class escape (`\d`) stands for one of its characters; a boundary (`\b`) for none.
            guard let options = escape(inClass: false) else { return nil }
            text = options.isEmpty ? "" : String(random.pick(options))
        case "*", "+", "?", "{", ")", "|": return nil
        default: text = String(character)
        }
        guard let text else { return nil }
        return Atom(text: text, source: start..<index)
    }

    private mutating func quantifier() -> (Int, Int)? {
        guard let character = current else { return (1, 1) }
        var bounds: (Int, Int)
        switch character {
        case "*": index += 1; bounds = (0, 3)
        case "+": index += 1; bounds = (1, 3)
        case "?": index += 1; bounds = (0, 1)
        case "{":
            guard let close = characters[index...].firstIndex(of: "}") else { return nil }
            let parts = String(characters[(index + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
            index = close + 1
            guard let low = Int(parts[0]) else { return nil }
            if parts.count == 1 { bounds = (low, low) } else if let high = Int(parts[1]) { bounds = (low, high) } else { bounds = (low, low + 3) }
        default:
            return (1, 1)
        }
        if current == "?" || current == "+" { index += 1 }  // lazy or possessive: the same strings
        return bounds
    }

    private mutating func characterClass() -> Character? {
        var negated = false
        if current == "^" {
            negated = true
            index += 1
        }
        var members: [Character] = []
        var first = true
        while let character = current, character != "]" || first {
            first = false
            index += 1
            var low = character
            if character == "\\" {
                guard let escaped = escape(inClass: true) else { return nil }
                if escaped.count > 1 { members += escaped; continue }
                low = escaped[0]
            }
            if current == "-", index + 1 < characters.count, characters[index + 1] != "]" {
                index += 1
                guard var high = current else { return nil }
                index += 1
                if high == "\\", let escaped = escape(inClass: true), escaped.count == 1 { high = escaped[0] }
                guard let lowValue = low.unicodeScalars.first?.value, let highValue = high.unicodeScalars.first?.value,
                      lowValue <= highValue else { return nil }
                members += (lowValue...min(highValue, lowValue + 500)).compactMap(Unicode.Scalar.init).map(Character.init)
            } else {
                members.append(low)
            }
        }
        guard current == "]" else { return nil }
        index += 1
        if negated {
            let allowed = RegexSampler.printable.filter { !members.contains($0) }
            return allowed.isEmpty ? nil : random.pick(allowed)
        }
        return members.isEmpty ? nil : random.pick(members)
    }

    /// The characters an escape stands for (one for a literal, several for a class such as `\d`).
    private mutating func escape(inClass: Bool) -> [Character]? {
        guard let character = current else { return nil }
        index += 1
        switch character {
        case "d": return Array("0123456789")
        case "w": return Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        case "s": return [" "]
        case "D": return Array("abcxyz")
        case "W": return Array("-.!")
        case "S": return Array("abc")
        case "n": return ["\n"]
        case "t": return ["\t"]
        case "r": return ["\r"]
        case "u":
            guard index + 4 <= characters.count, let value = UInt32(String(characters[index..<(index + 4)]), radix: 16),
                  let scalar = Unicode.Scalar(value) else { return nil }
            index += 4
            return [Character(scalar)]
        case "b", "B": return inClass ? ["\u{8}"] : []
        case "1"..."9": return nil
        default: return [character]
        }
    }

    static let printable: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
}
