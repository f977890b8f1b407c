extension Scenario {
    /// The scenarios in `fixtures/scenarios/`, built in so `POST /__understudy/scenarios {"name": …}` works wherever
    /// the binary runs (a test checks they match the files).
    static let shipped: [String: String] = [
        "broken-stream": #"""
{
  "description": "An unreliable event stream: each connection to /products/stream drops after 3 events; the first one is cut inside event 2. Clients must reconnect with Last-Event-ID.",
  "rules": [
    {"match": {"path": "/products/stream"}, "fault": "cut-mid-event=2", "times": 1},
    {"match": {"path": "/products/stream"}, "fault": "drop-after=3"}
  ]
}
"""#,
        "expired-token": #"""
{
  "description": "The first authenticated request finds its access token expired (401 Token Expired!); a client that refreshes once and retries succeeds.",
  "rules": [
    {"match": {"path": "/auth/me"}, "fault": "expire-token", "times": 1},
    {"match": {"path": "/auth/products*"}, "fault": "expire-token", "times": 1}
  ]
}
"""#,
        "flaky-network": #"""
{
  "description": "A flaky mobile network: about one request in ten is reset, one in ten is cut short, one in ten arrives late. Seeded, so every run fails the same requests.",
  "seed": 20261129,
  "rules": [
    {"match": {"path": "/products*"}, "fault": "reset", "probability": 0.1},
    {"match": {"path": "/products*"}, "fault": "truncate=50%", "probability": 0.11},
    {"match": {"path": "/products*"}, "fault": "delay=800ms..2s", "probability": 0.125}
  ]
}
"""#,
        "outage-then-recovery": #"""
{
  "description": "A backend outage: the first 6 catalogue requests get 503 with Retry-After: 1, then the service recovers.",
  "rules": [
    {"match": {"path": "/products*"}, "fault": "status=503; retry-after=1; message=Service Unavailable: scheduled maintenance", "times": 6}
  ]
}
"""#,
        "rate-limited": #"""
{
  "description": "A strict API gateway: 5 requests per 10 seconds per session, then 429 with Retry-After and x-ratelimit headers.",
  "rules": [
    {"match": {"path": "/products*"}, "fault": "rate-limit=5/10s"}
  ]
}
"""#,
        "slow-3g": #"""
{
  "description": "A slow 3G connection: 400 ms to 1.2 s before the first byte, then bodies at 50 kB/s.",
  "rules": [
    {"fault": "delay=400ms..1200ms; rate=50kB/s"}
  ]
}
"""#,
    ]

    /// A shipped scenario by name, or nil.
    static func shipped(named name: String) -> Scenario? {
        guard let text = shipped[name] else { return nil }
        return try? parse(Array(text.utf8), file: "\(name).json")
    }
}
