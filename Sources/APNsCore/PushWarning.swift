/// Something APNs accepts but a device would not show as the provider probably meant, or would
/// throttle: the emulator accepts the push as APNs does, and says so.
public struct PushWarning: Hashable, Sendable, CustomStringConvertible {
    /// A short stable name, e.g. `background-priority` (the metric's label).
    public let code: String
    /// What is wrong and what to send instead, for people.
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as the `apns-emulator-warning` header and the journal show it.
    public var description: String { "\(self.code): \(self.message)" }
}
