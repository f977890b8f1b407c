/// The full user object `GET /auth/me` answers with.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// Hair colour and type.
    public struct Hair: Codable, Sendable, Hashable {
        /// The colour.
        public var color: String
        /// The type.
        public var type: String

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(color: String, type: String) {
            self.color = color
            self.type = type
        }
    }

    /// A latitude and longitude.
    public struct Coordinates: Codable, Sendable, Hashable {
        /// Latitude.
        public var lat: Double
        /// Longitude.
        public var lng: Double

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(lat: Double, lng: Double) {
            self.lat = lat
            self.lng = lng
        }
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

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(
            address: String,
            city: String,
            state: String,
            stateCode: String,
            postalCode: String,
            coordinates: Coordinates,
            country: String
        ) {
            self.address = address
            self.city = city
            self.state = state
            self.stateCode = stateCode
            self.postalCode = postalCode
            self.coordinates = coordinates
            self.country = country
        }
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

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(cardExpire: String, cardNumber: String, cardType: String, currency: String, iban: String) {
            self.cardExpire = cardExpire
            self.cardNumber = cardNumber
            self.cardType = cardType
            self.currency = currency
            self.iban = iban
        }
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

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(department: String, name: String, title: String, address: Address) {
            self.department = department
            self.name = name
            self.title = title
            self.address = address
        }
    }

    /// A crypto wallet (fictional).
    public struct Crypto: Codable, Sendable, Hashable {
        /// The coin.
        public var coin: String
        /// The wallet address.
        public var wallet: String
        /// The network.
        public var network: String

        /// Creates a value from its fields, as an app's fakes and previews need.
        public init(coin: String, wallet: String, network: String) {
            self.coin = coin
            self.wallet = wallet
            self.network = network
        }
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

    /// Creates a value from its fields, as an app's fakes and previews need.
    public init(
        id: Int,
        firstName: String,
        lastName: String,
        maidenName: String,
        age: Int,
        gender: String,
        email: String,
        phone: String,
        username: String,
        password: String,
        birthDate: String,
        image: String,
        bloodGroup: String,
        height: Double,
        weight: Double,
        eyeColor: String,
        hair: Hair,
        ip: String,
        address: Address,
        macAddress: String,
        university: String,
        bank: Bank,
        company: Company,
        ein: String,
        ssn: String,
        userAgent: String,
        crypto: Crypto,
        role: String
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.maidenName = maidenName
        self.age = age
        self.gender = gender
        self.email = email
        self.phone = phone
        self.username = username
        self.password = password
        self.birthDate = birthDate
        self.image = image
        self.bloodGroup = bloodGroup
        self.height = height
        self.weight = weight
        self.eyeColor = eyeColor
        self.hair = hair
        self.ip = ip
        self.address = address
        self.macAddress = macAddress
        self.university = university
        self.bank = bank
        self.company = company
        self.ein = ein
        self.ssn = ssn
        self.userAgent = userAgent
        self.crypto = crypto
        self.role = role
    }
}
