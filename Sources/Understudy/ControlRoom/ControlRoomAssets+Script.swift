/// The control room's script: one ES module, no dependencies. It reads the live feed, drives the admin API, and
/// runs a demo client against the public API so the audience sees what a fault does to an app.
extension ControlRoomAssets {
    /// The module's parts in the order they are joined, one file each in `Assets/`.
    static let scriptParts: [[UInt8]] = [
        // The module's constants and shared state.
        PackageResources.script_core_js,
        // The admin API: its headers (the token, when one is needed) and asking for the token.
        PackageResources.script_admin_js,
        // The live feed, read with fetch() streaming, and what each event changes.
        PackageResources.script_feed_js,
        // The traffic table, its filters, and the requests-per-second and error-rate chart.
        PackageResources.script_traffic_js,
        // The switchboard: a switch per fault and route group, each an ordinary rule, and the rule list.
        PackageResources.script_switchboard_js,
        // Scenarios, offline with its countdown, the seed, reset, and sessions.
        PackageResources.script_stage_js,
        // The recording panel (with an upstream or a replay): start, stop, snapshot, recorded routes and misses.
        PackageResources.script_recording_js,
        // The TLS faults panel (when the server serves HTTPS): queue, clear, and the handshakes presented.
        PackageResources.script_tls_js,
        // The document panel (when the server serves one, --spec): its operations, a status or example forced on one.
        PackageResources.script_spec_js,
        // The contract panel (when the upstream is held to a document): operations seen, violations, broken bytes.
        PackageResources.script_contract_js,
        // The sockets panel: the open WebSockets, closing or dropping one, pushing a message to all.
        PackageResources.script_sockets_js,
        // The demo client: a paged list, login and /auth/me with retries and backoff, and the price ticker.
        PackageResources.script_demo_client_js,
        // Stage settings (type size, theme) and start-up.
        PackageResources.script_start_js,
    ]

    /// The whole module: its parts joined by a newline.
    static let script: [UInt8] = Array(scriptParts.joined(separator: [UInt8(ascii: "\n")]))
}
