import Foundation

/// The routes `openapi/openapi.yaml` describes: each path template with the methods listed under it.
///
/// Read with a line scan of the spec's layout (two-space path keys, four-space method keys under `paths:`), which
/// is how the file is written; the spec validator in `make contract` checks that the YAML is what it looks like.
struct SpecRoutes {
    struct Path: CustomStringConvertible, Sendable {
        let template: String
        /// Upper-case methods, HEAD included wherever GET is (the spec's convention, stated in its description).
        let methods: Set<String>
        var segments: [Substring] { template.split(separator: "/") }
        var description: String { template }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let operationKeys: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every path of the spec, your own collections' `/{collection}…` templates and the admin API's included.
    static let allPaths: [Path] = {
        let text = (try? String(contentsOf: root.appendingPathComponent("openapi/openapi.yaml"), encoding: .utf8)) ?? ""
        var paths: [Path] = []
        var current: (template: String, methods: Set<String>)?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                if let current { paths.append(Path(template: current.template, methods: current.methods)) }
                current = (String(line.dropFirst(2).dropLast()), [])
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let colon = line.firstIndex(of: ":"),
                      operationKeys.contains(String(line.dropFirst(4)[..<colon])) {
                let method = line.dropFirst(4)[..<colon].uppercased()
                current?.methods.insert(method)
                if method == "GET" { current?.methods.insert("HEAD") }
            }
        }
        if let current { paths.append(Path(template: current.template, methods: current.methods)) }
        return paths
    }()

    /// The paths served on the built-in data: `/{collection}…` is your own collections' template, served only for
    /// files given with --fixtures, where it would claim every unknown path.
    static let paths = allPaths.filter { !$0.template.hasPrefix("/{collection}") }

    /// Every template that `path` (concrete, no query) matches; `{name}` stands for one non-empty segment.
    static func templates(matching path: String) -> [Path] {
        let segments = path.split(separator: "/")
        return paths.filter { spec in
            let template = spec.segments
            return template.count == segments.count && zip(template, segments).allSatisfy { pattern, segment in
                pattern.hasPrefix("{") || pattern == segment
            }
        }
    }

    /// A concrete path for a template: an id that exists, a category, a status code, a message. Rule and session
    /// ids that do not exist answer their own 404 (`No fault rule with id 'missing'`), which is still served.
    static func sample(_ template: String) -> String {
        let id = template.hasPrefix("/__understudy/") ? "missing" : "1"
        return template.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{slug}", with: "laptops")
            .replacingOccurrences(of: "{code}", with: "200").replacingOccurrences(of: "{message}", with: "fine")
            .replacingOccurrences(of: "{tag}", with: "history").replacingOccurrences(of: "{count}", with: "2")
    }

    /// The path a served path is documented as: the aliases the spec's description names (`/product`,
    /// `/users/login`, `/users/me`, `/https`, and every resource again under `/auth/`), resolved.
    static func documented(_ path: String) -> String {
        var path = path
        if path.hasPrefix("/auth/"), !templates(matching: path).isEmpty { return path }
        if path.hasPrefix("/auth/") { path = String(path.dropFirst("/auth".count)) }
        for (alias, target) in [("/product", "/products"), ("/https", "/http"), ("/users/login", "/auth/login"),
                                ("/users/me", "/auth/me"), ("/user", "/users"), ("/cart", "/carts"), ("/post", "/posts"),
                                ("/comment", "/comments"), ("/todo", "/todos"), ("/quote", "/quotes"),
                                ("/recipe", "/recipes")]
        where path == alias || (path.hasPrefix(alias + "/") && !alias.hasPrefix("/users/")) {
            path = target + path.dropFirst(alias.count)
        }
        return path
    }

    /// Literal segments of the spec's paths, and the samples its parameters take: the words a route added to the
    /// router is likely to be made of.
    static var vocabulary: [String] {
        let literals = paths.flatMap(\.segments).filter { !$0.hasPrefix("{") }.map(String.init)
        return Array(Set(literals + ["1", "laptops", "200", "fine", "missing", "history", "2"])).sorted()
    }
}
