import UnderstudyJSON
import UnderstudyOpenAPI

/// The admin API's route table: every method and path it answers (under `/__understudy`), the one list its
/// dispatch and its 405s read. Words match exactly, in case too.
extension AdminRoutes {
    static let table: [Route<Handler>] = [
        row("GET", "/health") { admin, _ throws(APIError) in admin.health() },
        row("GET", "/recording") { admin, _ throws(APIError) in admin.json(admin.recordingStatus()) },
        row("POST", "/recording") { admin, context throws(APIError) in try admin.startRecording(context.request) },
        row("DELETE", "/recording") { admin, _ throws(APIError) in try admin.stopRecording() },
        row("POST", "/recording/snapshot") { admin, context throws(APIError) in try admin.snapshot(context.request) },
        row("GET", "/faults") { admin, _ throws(APIError) in
            admin.json(.object(JSONObject([.init(key: "rules", value: .array(admin.faults.rules.map(AdminJSON.rule)))])))
        },
        row("POST", "/faults") { admin, context throws(APIError) in try admin.addRule(context.request) },
        row("DELETE", "/faults") { admin, context throws(APIError) in
            admin.deleted(admin.faults.removeAll(session: context.request.query["session"]))
        },
        row("GET", "/faults/{id}") { admin, context throws(APIError) in
            guard let rule = admin.faults.rules.first(where: { $0.id == context.id }) else { throw admin.noRule(context.id) }
            return admin.json(AdminJSON.rule(rule))
        },
        row("DELETE", "/faults/{id}") { admin, context throws(APIError) in
            guard let removed = admin.faults.remove(id: context.id) else { throw admin.noRule(context.id) }
            return admin.json(AdminJSON.rule(removed))
        },
        row("GET", "/requests") { admin, context throws(APIError) in try admin.requests(context.request) },
        row("DELETE", "/requests") { admin, context throws(APIError) in
            admin.deleted(admin.journal.clear(session: context.request.query["session"]))
        },
        row("GET", "/sessions") { admin, _ throws(APIError) in admin.sessions() },
        row("POST", "/sessions") { admin, context throws(APIError) in try admin.startSession(context.request) },
        row("DELETE", "/sessions/{id}") { admin, context throws(APIError) in try admin.endSession(context.id) },
        row("POST", "/reset") { admin, _ throws(APIError) in
            admin.faults.reset()
            admin.journal.clear()
            _ = admin.contract?.clear()
            // A clean stage is clean: TLS faults queued for the next handshakes go too.
            _ = admin.transport.tlsFaults?.removeAll()
            guard let spec = admin.spec else { return .message("Rules, sessions and the journal are cleared", status: 200) }
            spec.reset(session: nil)
            spec.clearForced()
            return .message("Rules, sessions, the journal, the document's state and its preferences are cleared", status: 200)
        },
        row("POST", "/offline") { admin, context throws(APIError) in try admin.goOffline(context.request) },
        row("GET", "/scenarios") { admin, _ throws(APIError) in admin.scenarios() },
        row("POST", "/scenarios") { admin, context throws(APIError) in try admin.loadScenario(try admin.body(of: context.request)) },
        row("GET", "/seed") { admin, _ throws(APIError) in
            admin.json(.object(JSONObject([.init(key: "seed", value: .number(JSONNumber(seed: admin.faults.seed)))])))
        },
        row("PUT", "/seed") { admin, context throws(APIError) in try admin.reseed(context.request) },
        row("GET", "/tls-faults") { admin, _ throws(APIError) in try admin.listTLSFaults() },
        row("POST", "/tls-faults") { admin, context throws(APIError) in try admin.addTLSFault(context.request) },
        row("DELETE", "/tls-faults") { admin, _ throws(APIError) in admin.deleted(try admin.tlsQueue().removeAll()) },
        row("GET", "/spec") { admin, _ throws(APIError) in try admin.specOperations() },
        row("PUT", "/spec/operations/{id}") { admin, context throws(APIError) in try admin.setPreference(context.request, id: context.id) },
        row("DELETE", "/spec/operations/{id}") { admin, context throws(APIError) in try admin.clearPreference(id: context.id) },
        row("DELETE", "/spec/state") { admin, context throws(APIError) in try admin.resetSpecState(context.request) },
        row("GET", "/sockets") { admin, _ throws(APIError) in admin.listSockets() },
        row("POST", "/sockets/send") { admin, context throws(APIError) in try admin.sendToSockets(context.request) },
        row("POST", "/sockets/{id}/close") { admin, context throws(APIError) in
            try admin.closeSocket(context.request, id: context.id)
        },
        row("GET", "/violations") { admin, _ throws(APIError) in admin.json(try admin.watch().reportJSON) },
        row("DELETE", "/violations") { admin, _ throws(APIError) in admin.deleted(try admin.watch().clear()) },
    ]

    private static func row(_ method: String, _ template: String, _ handler: @escaping Handler) -> Route<Handler> {
        Route(method, template, caseSensitive: true, action: handler)
    }
}
