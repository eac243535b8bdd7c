/// A binary notification APNs refuses: the status byte, the identifier to report, and for people a
/// detail the status alone does not carry.
public struct BinaryRejection: Error, Hashable, Sendable {
    public var status: BinaryStatus
    public var identifier: UInt32
    /// A sentence for logs; never on the wire.
    public var detail: String

    public init(status: BinaryStatus, identifier: UInt32, detail: String) {
        self.status = status
        self.identifier = identifier
        self.detail = detail
    }
}
