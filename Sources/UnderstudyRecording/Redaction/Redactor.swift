/// Replaces every secret of an exchange by a numbered placeholder, `understudy-redacted-1`, the same secret by the
/// same placeholder: the token a login returned and the `Authorization: Bearer …` sent later share one.
///
/// Never a hash of the secret (a short password's hash can be brute-forced): the numbers mean nothing outside this
/// value, whose map lives in memory only. A value that already is a placeholder stays as it is, so an exchange
/// replayed from a recording and recorded again keeps its placeholders.
struct Redactor {
    /// What every placeholder starts with.
    static let prefix = "understudy-redacted-"

    private let rewriter: SecretRewriter
    private var numbers: [String: Int] = [:]
    /// The highest number handed out so far.
    private(set) var lastNumber: Int

    /// A redactor for `options`' fields; numbering continues after `lastNumber` (a directory recorded into before).
    init(options: RecordingOptions, lastNumber: Int = 0) {
        rewriter = SecretRewriter(fields: options.redactedFieldSet)
        self.lastNumber = lastNumber
    }

    /// The placeholder of `secret`.
    mutating func placeholder(for secret: String) -> String {
        if secret.hasPrefix(Self.prefix) { return secret }
        if let number = numbers[secret] { return Self.prefix + String(number) }
        lastNumber += 1
        numbers[secret] = lastNumber
        return Self.prefix + String(lastNumber)
    }

    /// The exchange with its secrets replaced, request and response alike.
    mutating func redact(_ exchange: RecordedExchange) -> RecordedExchange {
        var redacted = exchange
        redacted.request.headers = redact(exchange.request.headers)
        redacted.request.query = rewriter.query(exchange.request.query) { placeholder(for: $0) }
        redacted.request.body = redact(body: exchange.request.body, headers: exchange.request.headers)
        redacted.response.headers = redact(exchange.response.headers)
        redacted.response.body = redact(body: exchange.response.body, headers: exchange.response.headers)
        for index in redacted.response.messages.indices {
            redacted.response.messages[index] = redact(redacted.response.messages[index])
        }
        return redacted
    }

    private mutating func redact(_ headers: [RecordedExchange.Header]) -> [RecordedExchange.Header] {
        headers.map { rewriter.header($0) { placeholder(for: $0) } }
    }

    /// A text message is redacted as a JSON body is, its JSON found behind a packet type's digits too (Socket.IO's
    /// `42["auth",{"token":…}]`); then any secret this redactor has already replaced (a login's token, the
    /// handshake's `Authorization`) is replaced wherever it stands in the text, so a protocol that is not JSON
    /// (`AUTH eyJ…`) does not carry it into the file. A binary message is kept.
    private mutating func redact(_ message: RecordedSocketMessage) -> RecordedSocketMessage {
        guard !message.isBinary else { return message }
        var redacted = message
        let digits = message.data.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        if let json = rewriter.body(Array(message.data[digits...]), contentType: nil, { placeholder(for: $0) }) {
            redacted.data = Array(message.data[..<digits]) + json
        }
        // Longest first, so a secret that holds a shorter one is replaced whole.
        for (secret, number) in numbers.sorted(by: { $0.key.utf8.count > $1.key.utf8.count })
        where secret.utf8.count >= Self.shortestSecretReplacedInText {
            redacted.data = redacted.data.replacing(Array(secret.utf8), with: Array((Self.prefix + String(number)).utf8))
        }
        return redacted
    }

    /// Secrets shorter than this are not searched for in free text: a four-digit pin would match any number.
    static let shortestSecretReplacedInText = 8

    private mutating func redact(body: [UInt8], headers: [RecordedExchange.Header]) -> [UInt8] {
        rewriter.body(body, contentType: headers.value(for: "Content-Type")) { placeholder(for: $0) } ?? body
    }

    /// The highest placeholder number written in `text` (0 when none), so a writer reopening a directory numbers on.
    static func highestNumber(in text: [UInt8]) -> Int {
        let prefix = Array(prefix.utf8)
        var highest = 0
        var index = 0
        while index + prefix.count <= text.count {
            guard text[index] == prefix[0], text[index..<(index + prefix.count)].elementsEqual(prefix) else {
                index += 1
                continue
            }
            index += prefix.count
            var number = 0
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39, number < 1 << 40 {
                number = number * 10 + Int(text[index] - 0x30)
                index += 1
            }
            highest = max(highest, number)
        }
        return highest
    }
}
