/// One notification of the legacy binary interface as it arrived, before validation: the fields
/// of a command 0, 1 or 2, still as raw bytes.
///
/// The wire layer fills this in; ``BinaryPushValidator`` turns it into a ``Notification`` or a
/// ``BinaryStatus``.
public struct BinaryPushRequest: Hashable, Sendable {
    /// 0 (simple), 1 (enhanced) or 2 (frame).
    public var command: UInt8
    /// The provider's notification identifier; 0 for command 0 and for a frame without item 3.
    public var identifier: UInt32
    /// UNIX seconds after which the notification is not delivered (0 = do not store); `nil` for
    /// command 0 and for a frame without item 4.
    public var expiry: UInt32?
    /// The token bytes, empty when the provider sent none.
    public var token: [UInt8]
    /// The payload bytes, empty when the provider sent none.
    public var payload: [UInt8]
    /// Item 5 of a frame; `nil` when absent (priority 10 is assumed).
    public var priority: UInt8?

    public init(
        command: UInt8,
        identifier: UInt32 = 0,
        expiry: UInt32? = nil,
        token: [UInt8],
        payload: [UInt8],
        priority: UInt8? = nil
    ) {
        self.command = command
        self.identifier = identifier
        self.expiry = expiry
        self.token = token
        self.payload = payload
        self.priority = priority
    }
}
