// Blocks for Apple platforms only: SwiftUI and XCUITest do not exist on Linux. This target links no server, so a
// Mac's `swift build --build-tests` compiles the SwiftUI one, and an iOS simulator build the UI-test recipe.

#if canImport(SwiftUI)
import SwiftUI
import UnderstudyDummyJSON

// snippet: swiftui-view-model
@MainActor final class ProductListModel: ObservableObject {   // iOS 16; from iOS 17, @Observable and @State
    private let products: ProductsClient
    @Published var items: [Product] = []
    @Published var failure: APIError?

    init(products: ProductsClient) { self.products = products }

    func load() async {
        do { items = try await products.list(20, 0, nil, nil).products } catch { failure = error }
    }
}

struct ProductListView: View {
    @ObservedObject var model: ProductListModel
    var body: some View {
        List(model.items) { Text($0.title) }.task { await model.load() }
    }
}

#Preview { ProductListView(model: ProductListModel(products: .preview)) }
// In the app: ProductListModel(products: .live(client)); in a test: .failing with the one closure it expects.
// end
#endif

#if os(iOS) && canImport(XCTest)
import UnderstudyControlTesting
import XCTest

final class UITestRecipe: XCTestCase {
    // snippet: ui-test-recipe
    @MainActor func testRecoversAfterTwo503s() async throws {
        let session = try await understudySession()                                  // ended in teardown
        try await session.addRule(.status(503), path: "/products/1", times: 2)       // 503 twice, then recover
        let app = XCUIApplication(); app.launchArguments += session.launchArguments; app.launch()
        XCTAssert(app.staticTexts["Silk Veil Foundation"].waitForExistence(timeout: 10))
        let journal = try await session.requests(path: "/products/1")
        XCTAssertEqual(journal.count, 3)                                              // 3 attempts
    }
    // end
}
#endif
