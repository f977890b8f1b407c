/// Where jitter comes from: a function returning a value in `0..<1`. Tests inject a fixed one.
package struct RandomSource: Sendable {
    private let body: @Sendable () -> Double

    /// Creates a source from a function returning values in `0..<1`.
    package init(_ body: @escaping @Sendable () -> Double) {
        self.body = body
    }

    /// The next value in `0..<1`.
    package func next() -> Double {
        body()
    }

    /// The system generator.
    package static let system = RandomSource { Double.random(in: 0..<1) }

    /// Always the same value; for tests.
    package static func constant(_ value: Double) -> RandomSource {
        RandomSource { value }
    }
}
