import APNsCore
import APNsDevice

/// A notification waiting in a device queue.
public struct QueuedNotification: Sendable, Equatable {
    /// Acceptance order across the whole store.
    public var sequence: UInt64
    public var notification: Notification
}
