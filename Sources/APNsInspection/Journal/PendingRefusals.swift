/// Refusals a binary-gateway connection made, waiting to be journaled. APNs answers only the first
/// bad notification, and only once everything before it was accepted; so the journal gets the
/// refusal the error response names, when it goes out, and the others are forgotten.
public struct PendingRefusals: Sendable {
    private var byIdentifier: [UInt32: (push: RejectedPush, fault: FaultMark?)] = [:]

    public init() {}

    /// Notes a refusal; the first one of an identifier counts.
    public mutating func note(_ push: RejectedPush, identifier: UInt32, fault: FaultMark? = nil) {
        guard self.byIdentifier[identifier] == nil else { return }
        self.byIdentifier[identifier] = (push, fault)
    }

    /// The refusal of `identifier` with this status byte, if one was noted; every other is forgotten.
    public mutating func take(identifier: UInt32, statusByte: UInt8) -> (push: RejectedPush, fault: FaultMark?)? {
        defer { self.byIdentifier = [:] }
        guard let refused = self.byIdentifier[identifier], refused.push.statusByte == statusByte else { return nil }
        return refused
    }
}
