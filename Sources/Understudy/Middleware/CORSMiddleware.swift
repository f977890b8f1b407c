/// DummyJSON's CORS on the public routes: any origin, with credentials, and preflights that allow every method it
/// serves and the headers asked for. A fake backend serves web apps wherever they run, a dev server on another
/// port included. The admin API never answers with CORS: only its own origin may use it (`AdminGate`).
struct CORSMiddleware: ReplyMiddleware {
    func prepare(_ plan: inout ReplyDraft) {
        guard !plan.isAdmin, plan.request.hasOriginOrCondition, let origin = plan.request.headers["Origin"] else { return }
        plan.response.headers.add("Access-Control-Allow-Origin", origin)
        plan.response.headers.add("Access-Control-Allow-Credentials", "true")
        plan.response.headers.add("Vary", "Origin")
        if plan.request.method == "OPTIONS" {
            plan.response.headers.add("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE")
            if let asked = plan.request.headers["Access-Control-Request-Headers"] {
                plan.response.headers.add("Access-Control-Allow-Headers", asked)
            }
        }
    }
}
