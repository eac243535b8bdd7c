import APNsCore
import APNsDevice

/// One notification in the journal: what arrived, where it stands, and since when.
public struct JournalEntry: Sendable {
    /// What arrived. An accepted notification is one reference (``Notification``); the rarer
    /// records of several hundred bytes are boxed (`indirect`), so that an entry, which the
    /// journal's ring holds and copies for every notification, stays small.
    public enum Push: Sendable {
        case accepted(Notification)
        indirect case rejected(RejectedPush)
        /// A channel management request or a broadcast, answered with success or not.
        indirect case broadcast(BroadcastRecord)
    }

    /// The journal's own order: larger is newer.
    public var id: UInt64
    public var push: Push
    public var status: JournalStatus
    /// When it reached `status` (delivered, expired, ...); nil while queued or for a rejection.
    public var statusAt: Int64?
    /// The store's key of an accepted notification.
    public var sequence: UInt64?
    /// The fault rule that shaped the answer, if any.
    public var fault: FaultMark?
    /// What the phone did with it; one reference, so that the entries of the many notifications
    /// no phone saw stay small (the journal copies entries on the accept path).
    public var phone: PhoneRecord?
    /// What handing it to the iOS Simulator (`serve --forward-to-simulator`) did; a reference too.
    public var simulator: SimulatorForward?
    /// What the phone did with a Live Activity push.
    public var activity: ActivityRecord?
    /// Where it waited on its way to the device: what its delivery log says beside its status.
    public var marks = DeliveryMarks()
    /// When the device's power state first held it back (the Console's "Stored - Power Considerations").
    public var heldAt: Int64?

    /// How the phone presented it when it was handed to its device.
    public var presentation: Presentation? { self.phone?.presentation }
    /// What the user did with it.
    public var response: UserResponse? { self.phone?.response }

    init(
        id: UInt64, push: Push, status: JournalStatus, statusAt: Int64?, sequence: UInt64?, fault: FaultMark? = nil,
        marks: DeliveryMarks = DeliveryMarks()
    ) {
        self.id = id
        self.push = push
        self.status = status
        self.statusAt = statusAt
        self.sequence = sequence
        self.fault = fault
        self.marks = marks
    }

    /// The `apns-unique-id` of an accepted notification; the journal's key of a rejected one.
    public var uniqueID: String {
        switch self.push {
        case .accepted(let notification): return notification.uniqueID
        case .rejected(let rejected): return rejected.id
        case .broadcast(let record): return record.id
        }
    }

    public var receivedAt: Int64 {
        switch self.push {
        case .accepted(let notification): return notification.receivedAt
        case .rejected(let rejected): return rejected.receivedAt
        case .broadcast(let record): return record.receivedAt
        }
    }

    public var topic: String? {
        switch self.push {
        case .accepted(let notification): return notification.topic
        case .rejected(let rejected): return rejected.topic
        case .broadcast(let record): return record.bundleID
        }
    }

    public var pushType: String? {
        switch self.push {
        case .accepted(let notification): return notification.pushType.rawValue
        case .rejected(let rejected): return rejected.pushType
        case .broadcast(let record): return record.pushType
        }
    }

    public var source: Interface {
        switch self.push {
        case .accepted(let notification): return notification.source
        case .rejected(let rejected): return rejected.source
        case .broadcast: return .broadcast
        }
    }

    /// Whether the entry is for `token` (hex, lower-case; a rejected entry compares what was sent).
    public func isFor(token: DeviceToken) -> Bool {
        switch self.push {
        case .accepted(let notification): return notification.token == token
        case .rejected(let rejected): return rejected.token == token.hex
        case .broadcast: return false
        }
    }
}
