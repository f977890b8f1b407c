/// Where the admin API and the control room live: a target under this prefix is Understudy's own, never the API's.
enum AdminPath {
    static let prefix = "/__understudy"
}
