/// What a HAR import keeps beyond what every entry's own fields decide: which hosts, and entries whose body the
/// exporter left out.
package struct HARReadOptions: Sendable, Equatable {
    /// Which hosts' entries become the recording.
    package enum Hosts: Sendable, Equatable {
        /// The host with the most usable entries: the API the file was saved for, without the analytics, fonts
        /// and CDNs around it. When several hosts tie for the most, there is no such API, and every host is kept.
        case main
        /// One host, by name (`api.example.com`, or with its port).
        case named(String)
        /// Every host, merged: identical requests to different hosts become one sequence.
        case all
    }

    /// Which hosts' entries are kept; the rest are listed as skipped.
    package var hosts: Hosts
    /// Whether an entry whose body the exporter did not keep is imported with an empty body and a note, rather
    /// than skipped.
    package var keepsEntriesWithoutBodies: Bool

    /// Options as named; by default the main host, and entries without their bodies skipped.
    package init(hosts: Hosts = .main, keepsEntriesWithoutBodies: Bool = false) {
        self.hosts = hosts
        self.keepsEntriesWithoutBodies = keepsEntriesWithoutBodies
    }
}
