import Foundation
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// Downloads to a file and uploads from one, through the client's session delegate.
@Suite(.timeLimit(.minutes(1))) struct TransferTests {
    @Test func downloadsTheWholeCatalogueToAFile() async throws {
        try await withHarness { h in
            let destination = temporaryFile("catalogue.json")
            defer { try? FileManager.default.removeItem(at: destination) }

            let transfer = h.client.download(ProductEndpoints.list(limit: 0), to: destination)
            let file = try await transfer.value()
            var last: TransferProgress?
            for await step in transfer.progress { last = step }

            #expect(file == destination)
            let data = try Data(contentsOf: destination)
            let contentLength = try #require(last?.expectedBytes, "the progress carries the Content-Length")
            #expect(Int64(data.count) == contentLength, "exactly Content-Length bytes: not short, not doubled")
            #expect(last?.completedBytes == contentLength)
            let list = try JSONDecoder().decode(ProductList.self, from: data)
            #expect(list.products.count == 194)
            #expect(list.total == 194)

            let journal = await h.settledRequests(to: "/products", count: 1)
            #expect(journal.count == 1)
            #expect(journal.first?.query == "limit=0")
            #expect(journal.first?.bytesWritten == data.count)
            #expect(journal.first?.authorization == nil)
        }
    }

    @Test func truncatedDownloadFailsAndLeavesNoFile() async throws {
        try await withHarness { h in
            try h.fault("truncate=50%", on: "/products")
            let destination = temporaryFile("short.json")
            let error = await #expect(throws: APIError.self) {
                try await h.client.download(ProductEndpoints.list(limit: 0), to: destination).value()
            }
            #expect(error?.kind == .connectionLost)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(await h.settledRequests(to: "/products", count: 1).count == 1, "downloads are not retried")
        }
    }

    @Test func uploadsAFileBody() async throws {
        try await withHarness { h in
            let source = temporaryFile("draft.json")
            defer { try? FileManager.default.removeItem(at: source) }
            let draft = ProductDraft(title: "Uploaded lamp", price: 12.5, stock: 3, category: "home-decoration")
            let body = try JSONEncoder().encode(draft)
            try body.write(to: source)

            let endpoint = Endpoint<ProductUpdate>(path: "products/add", method: .post)
            let transfer = h.client.upload(endpoint, from: .file(source), contentType: "application/json")
            let created = try await transfer.value()
            var last: TransferProgress?
            for await step in transfer.progress { last = step }

            #expect(created.id == 195)
            #expect(created.title == "Uploaded lamp")
            #expect(created.price == 12.5)
            #expect(created.stock == 3)
            #expect(last?.completedBytes == Int64(body.count))

            let journal = await h.settledRequests(to: "/products/add", count: 1)
            #expect(journal.count == 1)
            #expect(journal.first?.method == "POST")
            #expect(journal.first?.status == 201)
            #expect(journal.first?.bodySize == body.count)
            #expect(journal.first?.headers["Content-Type"] == "application/json")
        }
    }

    /// Under a DSL session (250 kB/s down, 10 ms first) the catalogue's 309 KB arrive over about 1.2 s, and the
    /// client's progress sees them arrive over that time, not at once. The bounds hold on a loaded machine too:
    /// throttling can only make the download slower, never faster, and the server's own clock gives the rate.
    /// The inactivity timeout is 30 s, not 10: what is measured is the server's rate, and under ThreadSanitizer's
    /// load a throttled read once sat idle past 10 s.
    @Test func downloadProgressArrivesAtTheProfilesRate() async throws {
        try await withHarness(timeoutSeconds: 30) { h in
            h.server.faults.startSession(h.session, profile: .dsl)
            let destination = temporaryFile("throttled.json")
            defer { try? FileManager.default.removeItem(at: destination) }
            let started = Date()
            let transfer = h.client.download(ProductEndpoints.list(limit: 0), to: destination)
            var steps: [(seconds: Double, progress: TransferProgress)] = []
            for await step in transfer.progress { steps.append((Date().timeIntervalSince(started), step)) }
            _ = try await transfer.value()
            let total = try #require(steps.last?.progress.expectedBytes)
            #expect(Date().timeIntervalSince(started) >= Double(total) / 250_000 * 0.9)
            let half = try #require(steps.first { $0.progress.completedBytes * 2 >= total })
            #expect(half.seconds >= Double(total) / 2 / 250_000 * 0.8, "half at \(half.seconds) s")
            #expect(steps.count >= 2, "progress arrives over time, not at once")
            let journal = await h.settledRequests(to: "/products", count: 1)
            #expect(journal.first?.fault == "profile=dsl")
            let rate = Double(try #require(journal.first?.achievedBytesPerSecond))
            #expect(abs(rate - 250_000) / 250_000 <= 0.10, "\(rate) B/s")
        }
    }

    /// Under an LTE session (1.25 MB/s up) a 900 KB upload is read at that rate: the kernel takes the first
    /// few hundred kilobytes at once, the rest the server reads at the profile's pace, and the client's progress
    /// reaches the end no sooner.
    @Test func uploadIsReadAtTheProfilesRate() async throws {
        try await withHarness(timeoutSeconds: 30) { h in
            h.server.faults.startSession(h.session, profile: .lte)
            let source = temporaryFile("big-draft.json")
            defer { try? FileManager.default.removeItem(at: source) }
            let body = Data("{\"title\":\"\(String(repeating: "u", count: 900_000))\"}".utf8)
            try body.write(to: source)
            let started = Date()
            let endpoint = Endpoint<ProductUpdate>(path: "products/add", method: .post)
            let transfer = h.client.upload(endpoint, from: .file(source), contentType: "application/json")
            var steps: [(seconds: Double, progress: TransferProgress)] = []
            for await step in transfer.progress { steps.append((Date().timeIntervalSince(started), step)) }
            _ = try await transfer.value()
            let seconds = Date().timeIntervalSince(started)
            let expected = 0.115 + Double(body.count) / 1_250_000
            #expect(seconds >= expected * 0.6, "\(seconds) s for \(body.count) bytes, at least \(expected * 0.6) s")
            #expect(seconds <= 25, "\(seconds) s: the read limit is lifted once the body is in")
            #expect(steps.last?.progress.completedBytes == Int64(body.count))
            let journal = await h.settledRequests(to: "/products/add", count: 1)
            #expect(journal.first?.bodySize == body.count)
            #expect(journal.first?.fault == "profile=lte")
        }
    }

    private func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("integration-\(UUID().uuidString)-\(name)")
    }
}
