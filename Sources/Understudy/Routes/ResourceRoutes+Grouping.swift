import UnderstudyJSON

extension ResourceRoutes {
    /// A field whose values group a resource's items, and DummyJSON's three routes over it: `/{name}/{plural}`
    /// (each value as `{slug, name, url}`), `/{name}/{word}-list` (the values) and `/{name}/{word}/{value}` (the
    /// items holding it, matched ignoring case). Products group by category, posts by tag.
    struct Grouping: Sendable {
        /// The top-level field: a string (a product's `category`) or an array of strings (a post's `tags`).
        var field: String
        /// The word of one group's route (`category`).
        var word: String
        /// The word of the route that lists the groups as objects (`categories`).
        var plural: String
        /// The name of one group's path parameter, as the spec writes it (`slug`).
        var parameter: String

        /// `/{name}/{plural}` and `/{name}/{word}-list`, read routes of one literal word.
        func reads(_ name: String, _ collection: @escaping @Sendable (Router, RouteContext) -> RecordCollection) -> [APIRoute] {
            let field = self.field
            let word = self.word
            return [
                APIRoute("GET", "/\(name)/\(plural)") { router, context throws(APIError) in
                    let records = collection(router, context)
                    return router.cachedJSON(context.request, context.query) {
                        SharedBytes(JSONWriter.encode(.array(records.distinctElements(of: field).map { slug in
                            Grouping.link(slug, url: "https://dummyjson.com/\(name)/\(word)/\(slug)")
                        })))
                    }
                },
                APIRoute("GET", "/\(name)/\(word)-list") { router, context throws(APIError) in
                    let records = collection(router, context)
                    return router.cachedJSON(context.request, context.query) {
                        SharedBytes(JSONWriter.encode(.array(records.distinctElements(of: field).map(JSONValue.string))))
                    }
                },
            ]
        }

        /// `/{name}/{word}/{value}`: the items in the group, through the list pipeline.
        func members(_ name: String, _ collection: @escaping @Sendable (Router, RouteContext) -> RecordCollection) -> APIRoute {
            let field = self.field
            return APIRoute("GET", "/\(name)/\(word)/{\(parameter)}", ResourceRoutes.listing(collection) { _, context, records throws(APIError) in
                records.matching(field, containsIgnoringCase: context.parameter)
            })
        }

        /// A group as `/{name}/{plural}` lists it.
        static func link(_ slug: String, url: String) -> JSONValue {
            .object(JSONObject([
                .init(key: "slug", value: .string(slug)),
                .init(key: "name", value: .string(displayName(of: slug))),
                .init(key: "url", value: .string(url)),
            ]))
        }

        /// "home-decoration" becomes "Home Decoration", as DummyJSON capitalises each `-`-separated word.
        static func displayName(of slug: String) -> String {
            slug.split(separator: "-", omittingEmptySubsequences: false)
                .map { word in word.prefix(1).uppercased() + word.dropFirst() }
                .joined(separator: " ")
        }
    }
}
