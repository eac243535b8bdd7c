/// The request headers a provider left out whose values the emulator assumed, as APNs does: the
/// push type (alert), the priority (10), the `apns-id` (a new one), the topic (the certificate's).
public struct AssumedHeaders: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let pushType = AssumedHeaders(rawValue: 1)
    public static let priority = AssumedHeaders(rawValue: 2)
    public static let apnsID = AssumedHeaders(rawValue: 4)
    public static let topic = AssumedHeaders(rawValue: 8)

    /// Each assumed header's name, in the order a request lists them.
    public var names: [String] {
        [(Self.pushType, "apns-push-type"), (.priority, "apns-priority"), (.apnsID, "apns-id"), (.topic, "apns-topic")]
            .compactMap { self.contains($0.0) ? $0.1 : nil }
    }
}
