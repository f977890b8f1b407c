/// Understudy: a DummyJSON-compatible fake backend with faults on cue.
public enum Understudy {
    /// The release version.
    public static let version = "0.1.0"
}
