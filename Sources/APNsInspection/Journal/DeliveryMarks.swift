/// Where an accepted notification waited on its way to its device, as the journal remembers it for
/// the delivery log: one byte, set as the store and the device sessions report.
public struct DeliveryMarks: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// No device held its token when it arrived: it waited in storage ("Stored - Device Offline").
    public static let storedOffline = DeliveryMarks(rawValue: 1 << 0)
    /// The device's power state held it back ("Stored - Power Considerations").
    public static let storedPower = DeliveryMarks(rawValue: 1 << 1)
    /// It came over HTTP/1.1 (the Web Push service takes both; everything else is HTTP/2 or binary).
    public static let overHTTP1 = DeliveryMarks(rawValue: 1 << 2)
    /// Dropped for room with no record kept: once out of the journal's ring there is nothing to read back.
    public static let unkept = DeliveryMarks(rawValue: 1 << 3)
    /// The app's notification service extension has it: it is presented once the extension answers.
    public static let extending = DeliveryMarks(rawValue: 1 << 4)

    /// Whether it reached the device (or was discarded) from storage rather than on arrival.
    public var fromStorage: Bool { !self.isDisjoint(with: [.storedOffline, .storedPower]) }
}
