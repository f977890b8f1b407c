/// The header names Understudy reads and writes.
public enum UnderstudyHeader {
    /// `X-Understudy-Fault`: a fault spec for one request.
    public static let fault = "X-Understudy-Fault"
    /// `X-Understudy-Fault-Applied`: the directives that took effect on a reply.
    public static let faultApplied = "X-Understudy-Fault-Applied"
    /// `X-Understudy-Session`: the session a request belongs to.
    public static let session = "X-Understudy-Session"
    /// `X-Understudy-Token`: the admin token, for a server started with `--admin-token`.
    public static let token = "X-Understudy-Token"
}
