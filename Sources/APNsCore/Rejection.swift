/// A request APNs refuses: the reason, the `apns-id` to echo, and for people a detail the
/// reason alone does not carry.
public struct Rejection: Error, Hashable, Sendable {
    public var reason: Reason
    public var apnsID: String
    /// A sentence for logs and the emulator's own detail header; never part of Apple's body.
    public var detail: String?

    public init(reason: Reason, apnsID: String, detail: String? = nil) {
        self.reason = reason
        self.apnsID = apnsID
        self.detail = detail
    }
}
