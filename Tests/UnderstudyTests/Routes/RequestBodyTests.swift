import Testing
@testable import Understudy
import UnderstudyJSON

@Suite struct RequestBodyTests {
    private func request(_ method: String = "POST", type: String, _ body: String) -> HTTPRequest {
        HTTPRequest(method: method, target: "/products/add", headers: ["Content-Type": type], body: Array(body.utf8))
    }

    private func strings(_ object: JSONObject) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: object.entries.map { ($0.key, $0.value) })
    }

    @Test func multipartTextFieldsAreRead() throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nDesk lamp\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"price\"\r\n\r\n12.5\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\u{1}\u{2}\r\n"
            + "--XyZ--\r\n"
        let fields = try RequestBody.fields(of: request(type: "multipart/form-data; boundary=\"XyZ\"", body))
        #expect(fields.entries.map(\.key) == ["title", "price"])
        #expect(strings(fields)["title"] == .string("Desk lamp"))
        #expect(strings(fields)["price"] == .string("12.5"))
    }

    @Test(arguments: [
        ("multipart/form-data", "x", "the Content-Type has no boundary"),
        ("multipart/form-data; boundary=b", "nothing", "no '--b' delimiter in the body"),
        ("multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue", "part 1 is not closed by '--b'"),
        ("multipart/form-data; boundary=b", "--b\r\nX-Other: 1\r\n\r\nv\r\n--b--", "part 1 has no Content-Disposition name"),
        ("multipart/form-data; boundary=b",
         "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n--b\r\nContent-Disposition: form-data; name=\"c\"\r\n\r\nv\r\n--b--",
         "part 1 has no blank line after its headers"),
    ])
    func malformedMultipartIs400(type: String, body: String, reason: String) {
        #expect {
            try RequestBody.fields(of: request(type: type, body))
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.status == 400 && error.message == "Malformed multipart body: \(reason)"
        }
    }

    @Test func emptyValuesAndFilesWithExtendedNames() throws {
        let body = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"doc\"; filename*=UTF-8''a.txt\r\n\r\nx\r\n--b--"
        let fields = try RequestBody.fields(of: request(type: "multipart/form-data; boundary=b", body))
        #expect(fields.entries.map(\.key) == ["title"])
        #expect(strings(fields)["title"] == .string(""))
    }

    @Test func multipartOnlyWithPostAndPut() {
        #expect {
            try RequestBody.fields(of: request("PATCH", type: "multipart/form-data; boundary=b", "--b--"))
        } throws: { error in
            (error as? APIError)?.message == "Multipart/form-data is not allowed with patch requests"
        }
    }

    @Test func repeatedFormKeysCollectArrays() throws {
        let fields = try RequestBody.fields(of: request(type: "application/x-www-form-urlencoded",
                                                        "images=a&images=b&tags[]=x&title=Lamp"))
        #expect(strings(fields)["images"] == .array([.string("a"), .string("b")]))
        #expect(strings(fields)["tags"] == .array([.string("x")]))
        #expect(strings(fields)["title"] == .string("Lamp"))
    }
}
