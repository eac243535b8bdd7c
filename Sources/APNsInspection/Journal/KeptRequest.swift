import APNsCore

/// A request the journal keeps in the store beside the notifications (``Inspection/keepRequests(_:)``):
/// one a provider got an error for, or a channel request or broadcast, with the fault that shaped it.
public enum KeptRequest: Sendable {
    case rejected(RejectedPush, fault: FaultMark?)
    case broadcast(BroadcastRecord, fault: FaultMark?)

    public var receivedAt: Int64 {
        switch self {
        case .rejected(let push, _): return push.receivedAt
        case .broadcast(let record, _): return record.receivedAt
        }
    }
}
