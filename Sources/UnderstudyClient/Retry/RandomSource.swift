/// Where jitter comes from: a function returning a value in `0..<1`. Tests inject a fixed one.
public struct RandomSource: Sendable {
    private let body: @Sendable () -> Double

    /// Creates a source from a function returning values in `0..<1`.
    public init(_ body: @escaping @Sendable () -> Double) {
        self.body = body
    }

    /// The next value in `0..<1`.
    public func next() -> Double {
        body()
    }

    /// The system generator.
    public static let system = RandomSource { Double.random(in: 0..<1) }

    /// Always the same value; for tests.
    public static func constant(_ value: Double) -> RandomSource {
        RandomSource { value }
    }
}
