// The typed fault spec is part of the server's API (`FaultRule(fault: Fault)`), so `import Understudy` brings it.
@_exported import UnderstudyFaultSpec
// So is the recording format (`Configuration.replay: Recording`).
@_exported import UnderstudyRecording

/// Understudy: a DummyJSON-compatible fake backend with faults on cue.
public enum Understudy {
    /// The release version.
    public static let version = "0.1.0"
}
