/// Every path Understudy serves, as the OpenAPI description names it; the route parity test holds the router,
/// this table and `openapi/openapi.yaml` to each other.
enum RouteTable {
    /// Path templates (`{id}` marks a parameter), public API first, then the admin API.
    static let paths = [
        "/", "/products", "/products/search", "/products/categories", "/products/category-list",
        "/products/category/{slug}", "/products/stream", "/products/add", "/products/{id}",
        "/auth/login", "/auth/me", "/auth/refresh", "/auth/logout", "/auth/products",
        "/http/{code}", "/http/{code}/{message}", "/test", "/ping", "/health",
        "/__understudy/health", "/__understudy/faults", "/__understudy/faults/{id}", "/__understudy/requests",
        "/__understudy/sessions", "/__understudy/sessions/{id}", "/__understudy/reset", "/__understudy/offline",
        "/__understudy/seed",
    ]

    /// Prefixes served exactly like another (documented in the description's text rather than as paths).
    static let aliases = ["/product": "/products", "/users/login": "/auth/login", "/users/me": "/auth/me", "/https": "/http"]
}
