import Testing
@testable import UnderstudyRecording

@Suite struct RedactorTests {
    @Test func oneSecretOnePlaceholderAcrossHeadersAndBodies() {
        var redactor = Redactor(options: RecordingOptions())
        let login = redactor.redact(Exchanges.post(
            "/auth/login", body: #"{"username":"emilys","password":"emilyspass"}"#,
            response: #"{"id":1,"accessToken":"eyJ.a.b","refreshToken":"eyJ.r.t"}"#,
            responseHeaders: [.init("Set-Cookie", "accessToken=eyJ.a.b; Path=/; HttpOnly"), .init("Set-Cookie", "refreshToken=eyJ.r.t; Path=/")]))
        #expect(String(decoding: login.request.body, as: UTF8.self) == #"{"username":"emilys","password":"understudy-redacted-1"}"#)
        #expect(String(decoding: login.response.body, as: UTF8.self)
            == #"{"id":1,"accessToken":"understudy-redacted-2","refreshToken":"understudy-redacted-3"}"#)
        #expect(login.response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
            == ["accessToken=understudy-redacted-2; Path=/; HttpOnly", "refreshToken=understudy-redacted-3; Path=/"])

        let me = redactor.redact(Exchanges.get("/auth/me", headers: [.init("Authorization", "Bearer eyJ.a.b"),
                                                                     .init("Cookie", "theme=dark; refreshToken=eyJ.r.t")]))
        #expect(me.request.headers.value(for: "authorization") == "Bearer understudy-redacted-2")
        #expect(me.request.headers.value(for: "Cookie") == "theme=understudy-redacted-4; refreshToken=understudy-redacted-3")
    }

    @Test func redactsAtAnyDepthInQueriesFormsAndConfiguredFields() {
        var redactor = Redactor(options: RecordingOptions(redactedFields: ["sessionKey"]))
        var exchange = Exchanges.post("/x", body: #"{"user":{"Password":"p","pin":1234,"sessionKey":"k","list":[{"token":"t"}]},"token":null}"#)
        exchange.request.query = [.init("token", "q"), .init("page", "2")]
        let redacted = redactor.redact(exchange)
        #expect(String(decoding: redacted.request.body, as: UTF8.self)
            == #"{"user":{"Password":"understudy-redacted-2","pin":1234,"sessionKey":"understudy-redacted-3","list":[{"token":"understudy-redacted-4"}]},"token":null}"#)
        #expect(redacted.request.query == [.init("token", "understudy-redacted-1"), .init("page", "2")])

        let form = RecordedExchange(request: .init(method: "POST", path: "/login", headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
                                                   body: Array("user=a&password=s%20ecret&x".utf8)),
                                    response: .init(status: 204))
        #expect(String(decoding: redactor.redact(form).request.body, as: UTF8.self) == "user=a&password=understudy-redacted-5&x")
    }

    @Test func basicAuthAndPlaceholdersStayStable() {
        var redactor = Redactor(options: RecordingOptions(), lastNumber: 41)
        #expect(redactor.placeholder(for: "understudy-redacted-7") == "understudy-redacted-7")
        let header = SecretRewriter(fields: []).header(.init("Authorization", "Basic dXNlcjpwYXNz")) { redactor.placeholder(for: $0) }
        #expect(header.value == "Basic understudy-redacted-42")
        let rewriter = SecretRewriter(fields: ["sessionkey"])
        #expect(rewriter.header(.init("X-Api-Key", "k-123")) { redactor.placeholder(for: $0) }.value == "understudy-redacted-43")
        #expect(rewriter.header(.init("SessionKey", "s")) { redactor.placeholder(for: $0) }.value == "understudy-redacted-44")
        #expect(rewriter.header(.init("Accept", "text/plain")) { redactor.placeholder(for: $0) }.value == "text/plain")
        #expect(Redactor.highestNumber(in: Array(#"["understudy-redacted-3","understudy-redacted-12", "understudy-redacted-"]"#.utf8)) == 12)
    }

    /// A body is searched for the secret fields' names before it is parsed: one naming none is left as it is;
    /// a name in any case, or a `\u` escape that could spell one, has the body parsed and redacted.
    @Test func aBodyIsParsedOnlyWhenItMayNameASecret() {
        let rewriter = SecretRewriter(fields: RecordingOptions().redactedFieldSet.union(["pin"]))
        #expect(!rewriter.mayName(Array(#"{"products":[{"id":1,"title":"Mascara"}],"total":194}"#.utf8)))
        #expect(rewriter.body(Array(#"{"id": 1}"#.utf8), contentType: "application/json") { _ in "x" } == nil)
        for body in [#"{"PassWord":"p"}"#, #"{"ID_TOKEN":"t"}"#, #"{"\u0074oken":"t"}"#, #"{"Pin":1234}"#] {
            #expect(rewriter.mayName(Array(body.utf8)), "\(body)")
            let redacted = rewriter.body(Array(body.utf8), contentType: "application/json") { _ in "understudy-redacted-1" }
            #expect(redacted.map { String(decoding: $0, as: UTF8.self).contains("understudy-redacted-1") } == true, "\(body)")
        }
    }
    /// A socket's text messages: JSON is redacted as a body is, behind Socket.IO's packet digits too; a secret seen
    /// earlier in the recording (the login's token, the handshake's `Authorization`) is replaced in any text; a
    /// short secret is not searched for in free text, and binary messages are kept.
    @Test func aSocketsTextMessagesLoseTheirSecretsWhateverTheirForm() {
        var redactor = Redactor(options: RecordingOptions())
        _ = redactor.redact(Exchanges.post("/auth/login", body: #"{"username":"emilys","password":"1234"}"#,
                                           response: #"{"accessToken":"eyJhbGciOi.payload.sig"}"#))
        var socket = Exchanges.get("/live", status: 101, body: "",
                                   headers: [.init("Authorization", "Bearer eyJhbGciOi.payload.sig")])
        socket.response.messages = [
            .init(.client, text: #"{"type":"auth","token":"t0ken-in-json"}"#, milliseconds: 1),
            .init(.client, text: #"42["auth",{"token":"socket-io-token"}]"#, milliseconds: 2),
            .init(.client, text: "AUTH eyJhbGciOi.payload.sig", milliseconds: 3),
            .init(.server, text: "password 1234 accepted; welcome", milliseconds: 4),
            .init(.server, data: Array("eyJhbGciOi.payload.sig".utf8), isBinary: true, milliseconds: 5),
        ]
        let messages = redactor.redact(socket).response.messages.map { String(decoding: $0.data, as: UTF8.self) }
        #expect(messages == [
            #"{"type":"auth","token":"understudy-redacted-3"}"#,
            #"42["auth",{"token":"understudy-redacted-4"}]"#,
            "AUTH understudy-redacted-2",
            "password 1234 accepted; welcome",
            "eyJhbGciOi.payload.sig",
        ])
    }
}
