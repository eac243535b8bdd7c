import APNsCore

extension DevicePower {
    /// A change to a device's power state, as the admin API, the device protocol and the seed
    /// each read it from a document (`{"online"?, "lowPowerMode"?, "locked"?}`, each a boolean):
    /// what it names is set, the rest stays.
    public struct Change: Hashable, Sendable {
        public var online: Bool?
        public var lowPowerMode: Bool?
        public var locked: Bool?

        public init(online: Bool? = nil, lowPowerMode: Bool? = nil, locked: Bool? = nil) {
            (self.online, self.lowPowerMode, self.locked) = (online, lowPowerMode, locked)
        }

        /// The change a document asks for: an unknown member, or a value that is not a boolean,
        /// is refused with what was wrong.
        public init(_ document: JSONValue) throws(DeviceModelError) {
            guard case .object(let members) = document else {
                throw DeviceModelError(
                    .invalid, field: "power", "a power document is a JSON object with any of online, lowPowerMode, locked")
            }
            for (key, value) in members {
                guard case .bool(let flag) = value else {
                    throw DeviceModelError(.invalid, field: key, "\(key) is true or false")
                }
                switch key {
                case "online": self.online = flag
                case "lowPowerMode": self.lowPowerMode = flag
                case "locked": self.locked = flag
                default:
                    throw DeviceModelError(
                        .invalid, field: key, "unknown member \(key): a power document has online, lowPowerMode and locked")
                }
            }
        }

        /// The change a document's bytes ask for (``init(_:)``); bytes that are not JSON are
        /// refused as any document that is not an object is.
        public init(document: [UInt8]) throws(DeviceModelError) {
            try self.init(JSONValue.parse(document) ?? .null)
        }
    }
}
