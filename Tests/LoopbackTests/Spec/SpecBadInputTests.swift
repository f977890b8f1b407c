import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Documents and requests made to break a spec server: each is a clear error, within a second, with no crash.
@Suite struct SpecBadInputTests {
    /// Loads `text` as a document, and the error it gives, timed.
    private func refusal(_ text: String, name: String = "bad.yaml") -> (error: OpenAPISpecError?, seconds: Double) {
        let started = Date()
        do {
            _ = try OpenAPISpec(text: text, name: name)
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    private static let head = "openapi: 3.1.0\ninfo: {title: bad, version: '1'}\n"

    @Test func aThousandDeepDocumentIsRefused() {
        let deep = Self.head + "paths: {}\nx-deep: " + String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000) + "\n"
        let (error, seconds) = refusal(deep)
        #expect(error?.description.contains("nesting deeper than 512 levels") == true)
        #expect(seconds < 1)
    }

    @Test func anAliasBombIsRefused() {
        var bomb = Self.head + "paths: {}\nx-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        let names = Array("abcdefghi")
        for index in 1..<names.count {
            bomb += "x-\(names[index]): &\(names[index]) [" + Array(repeating: "*\(names[index - 1])", count: 10).joined(separator: ", ") + "]\n"
        }
        let (error, seconds) = refusal(bomb)
        #expect(error?.description.contains("alias bomb") == true)
        #expect(seconds < 1)
    }

    @Test func aDuplicateKeyIsRefusedWithItsLine() {
        let (error, _) = refusal(Self.head + "paths: {}\ninfo: {}\n")
        #expect(error?.description.contains("bad.yaml:4:1: duplicate key 'info'") == true)
    }

    @Test func aReferenceCycleIsRefused() {
        let cycle = Self.head + """
            paths:
              /a:
                $ref: '#/paths/~1b'
              /b:
                $ref: '#/paths/~1a'
            """
        let (error, seconds) = refusal(cycle)
        #expect(error?.description.contains("round in a circle") == true)
        #expect(seconds < 1)
    }

    @Test func aMissingReferencedFileIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("openapi.yaml")
        try (Self.head + """
            paths:
              /a:
                get:
                  responses:
                    '200': {$ref: 'responses/missing.yaml'}
            """).write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try OpenAPISpec(contentsOf: file.path)
            Issue.record("a document with a missing file loaded")
        } catch {
            #expect(error.description.contains("openapi.yaml:7:24: error: unresolved"))
            #expect(error.description.contains("unresolved $ref 'responses/missing.yaml': no such file"))
        }
    }

    @Test func aSelfReferentialSchemaServes() async throws {
        let recursive = Self.head + """
            paths:
              /tree:
                get:
                  responses:
                    '200':
                      description: a tree
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Node'}
            components:
              schemas:
                Node:
                  type: object
                  required: [children]
                  properties:
                    children: {type: array, items: {$ref: '#/components/schemas/Node'}}
            """
        var configuration = UnderstudyServer.Configuration()
        configuration.spec = try OpenAPISpec(text: recursive, name: "tree.yaml")
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        let reply = try await HTTPTestClient(server: server).send("/tree", headers: ["Prefer": "dynamic=true"])
        #expect(reply.status == 200)
        #expect(reply.text.hasPrefix("{\"children\":"))
    }

    @Test func aTenMegabyteBodyIsRefusedAndTheServerServesOn() async throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.spec = try OpenAPISpec(text: SpecFixtures.pets, name: "pets.json")
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        let client = HTTPTestClient(server: server, timeoutSeconds: 30)
        let huge = try await client.send("POST", "/pets", headers: ["Content-Type": "application/json", "Authorization": "Bearer t"],
                                         body: Data(repeating: UInt8(ascii: " "), count: 10 << 20))
        #expect(huge.status == 413)
        #expect(huge.message != nil)
        #expect(try await client.send("/pets").status == 200)
    }
}
