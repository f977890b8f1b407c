extension Fault {
    /// A named network, after the presets of Apple's Network Link Conditioner: download and upload rates, the
    /// latency before a reply's first byte, and how often a body pauses (its packet loss).
    ///
    /// `profile=3g` in a fault spec, `"profile": "3g"` on a session. The figures are the presets' published ones:
    /// rates in kilobits per second become bytes per second (1 kbit = 1,000 bits), and the two directions' delays
    /// add up to one round trip before the first byte.
    public struct NetworkProfile: Sendable, Hashable, CustomStringConvertible {
        /// The name in the grammar, e.g. `3g` or `very-bad-network`.
        public let name: String
        /// Reply bytes per second; nil for a profile that sends nothing (`100-loss`).
        public let downloadBytesPerSecond: Int?
        /// Request body bytes per second; nil for a profile that reads nothing (`100-loss`).
        public let uploadBytesPerSecond: Int?
        /// Milliseconds before the status line: the downlink's and the uplink's delay.
        public let latencyMilliseconds: Int
        /// The preset's packet loss in percent; a lossy profile pauses its bodies now and then (`stall`).
        public let lossPercent: Int

        package init(name: String, downloadKilobits: Int?, uploadKilobits: Int?, latencyMilliseconds: Int,
                     lossPercent: Int) {
            self.name = name
            downloadBytesPerSecond = downloadKilobits.map { $0 * 1_000 / 8 }
            uploadBytesPerSecond = uploadKilobits.map { $0 * 1_000 / 8 }
            self.latencyMilliseconds = latencyMilliseconds
            self.lossPercent = lossPercent
        }

        /// 3G: 780 kbit/s down, 330 kbit/s up, 100 ms each way.
        public static let threeG = NetworkProfile(name: "3g", downloadKilobits: 780, uploadKilobits: 330,
                                                  latencyMilliseconds: 200, lossPercent: 0)
        /// Edge: 240 kbit/s down (400 ms), 200 kbit/s up (440 ms).
        public static let edge = NetworkProfile(name: "edge", downloadKilobits: 240, uploadKilobits: 200,
                                                latencyMilliseconds: 840, lossPercent: 0)
        /// LTE: 50 Mbit/s down (50 ms), 10 Mbit/s up (65 ms).
        public static let lte = NetworkProfile(name: "lte", downloadKilobits: 50_000, uploadKilobits: 10_000,
                                               latencyMilliseconds: 115, lossPercent: 0)
        /// Wi-Fi: 40 Mbit/s down, 33 Mbit/s up, 1 ms each way.
        public static let wifi = NetworkProfile(name: "wifi", downloadKilobits: 40_000, uploadKilobits: 33_000,
                                                latencyMilliseconds: 2, lossPercent: 0)
        /// DSL: 2 Mbit/s down, 256 kbit/s up, 5 ms each way.
        public static let dsl = NetworkProfile(name: "dsl", downloadKilobits: 2_000, uploadKilobits: 256,
                                               latencyMilliseconds: 10, lossPercent: 0)
        /// Very Bad Network: 1 Mbit/s each way, 500 ms each way, 10 % packet loss.
        public static let veryBadNetwork = NetworkProfile(name: "very-bad-network", downloadKilobits: 1_000,
                                                          uploadKilobits: 1_000, latencyMilliseconds: 1_000,
                                                          lossPercent: 10)
        /// 100% Loss: nothing gets through, so the request hangs.
        public static let totalLoss = NetworkProfile(name: "100-loss", downloadKilobits: nil, uploadKilobits: nil,
                                                     latencyMilliseconds: 0, lossPercent: 100)

        /// Every preset, in the order an error lists them.
        public static let all: [NetworkProfile] = [threeG, edge, lte, wifi, dsl, veryBadNetwork, totalLoss]

        /// Whether nothing gets through: the request is read and never answered.
        public var dropsEverything: Bool { lossPercent >= 100 }

        /// The name in the grammar.
        public var description: String { name }

        /// A preset by its name in any case, with or without separators (`3G`, `Wi-Fi`, `Very Bad Network`,
        /// `100% Loss`), or nil.
        public static func named(_ text: String) -> NetworkProfile? {
            let key = folded(text)
            let aliases = ["verybad": veryBadNetwork.name, "100percentloss": totalLoss.name, "loss": totalLoss.name]
            let wanted = aliases[key] ?? key
            return all.first { folded($0.name) == folded(wanted) }
        }

        private static func folded(_ text: String) -> String {
            String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
                ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9")
            }))
        }
    }
}
