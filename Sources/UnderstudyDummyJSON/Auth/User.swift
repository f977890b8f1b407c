import UnderstudyClient

/// The full user object `GET /auth/me` answers with.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// Hair colour and type.
    public struct Hair: Codable, Sendable, Hashable {
        /// The colour.
        public var color: String
        /// The type.
        public var type: String
    }

    /// A latitude and longitude.
    public struct Coordinates: Codable, Sendable, Hashable {
        /// Latitude.
        public var lat: Double
        /// Longitude.
        public var lng: Double
    }

    /// A postal address.
    public struct Address: Codable, Sendable, Hashable {
        /// The street line.
        public var address: String
        /// The city.
        public var city: String
        /// The state.
        public var state: String
        /// The state's code.
        public var stateCode: String
        /// The postal code.
        public var postalCode: String
        /// The coordinates.
        public var coordinates: Coordinates
        /// The country.
        public var country: String
    }

    /// Payment card details (fictional).
    public struct Bank: Codable, Sendable, Hashable {
        /// `MM/YY`.
        public var cardExpire: String
        /// The card number.
        public var cardNumber: String
        /// The card type.
        public var cardType: String
        /// The currency code.
        public var currency: String
        /// The IBAN.
        public var iban: String
    }

    /// The employer.
    public struct Company: Codable, Sendable, Hashable {
        /// The department.
        public var department: String
        /// The company name.
        public var name: String
        /// The job title.
        public var title: String
        /// The office address.
        public var address: Address
    }

    /// A crypto wallet (fictional).
    public struct Crypto: Codable, Sendable, Hashable {
        /// The coin.
        public var coin: String
        /// The wallet address.
        public var wallet: String
        /// The network.
        public var network: String
    }

    /// The id.
    public var id: Int
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The maiden name; may be empty.
    public var maidenName: String
    /// The age.
    public var age: Int
    /// The gender.
    public var gender: String
    /// The email address.
    public var email: String
    /// The phone number.
    public var phone: String
    /// The username.
    public var username: String
    /// The password (DummyJSON serves it; it is `<username>pass`).
    public var password: String
    /// `YYYY-M-D`, not zero-padded.
    public var birthDate: String
    /// The avatar URL.
    public var image: String
    /// The blood group.
    public var bloodGroup: String
    /// Height in centimetres.
    public var height: Double
    /// Weight in kilograms.
    public var weight: Double
    /// The eye colour.
    public var eyeColor: String
    /// The hair.
    public var hair: Hair
    /// The IP address.
    public var ip: String
    /// The home address.
    public var address: Address
    /// The MAC address.
    public var macAddress: String
    /// The university.
    public var university: String
    /// The bank card.
    public var bank: Bank
    /// The employer.
    public var company: Company
    /// The employer identification number.
    public var ein: String
    /// The social security number (fictional).
    public var ssn: String
    /// The browser user agent.
    public var userAgent: String
    /// The crypto wallet.
    public var crypto: Crypto
    /// `admin`, `moderator` or `user`.
    public var role: String
}
