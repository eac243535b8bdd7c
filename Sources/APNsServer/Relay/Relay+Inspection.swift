import APNsCore
import APNsStore
import NIOCore

/// What the feedback service and the admin API read and change in the store.
extension Relay {
    /// The tokens that became invalid and are not yet read, limited to `topics` when given.
    func feedback(topics: Set<String>? = nil) throws(StoreError) -> [FeedbackEntry] {
        let all = try self.store.feedback()
        guard let topics else { return all }
        return all.filter { topics.contains($0.topic) }
    }

    /// The feedback service handed `entries` to a provider: they leave the list.
    func clearFeedback(_ entries: [FeedbackEntry], on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.clearFeedback(entries), on: eventLoop).map { _ in }
    }

    /// Every token the store knows, with how many notifications each has queued.
    func tokens() throws(StoreError) -> (records: [TokenRecord], queued: [DeviceToken: Int]) {
        (try self.store.tokens(), try self.store.queueCounts())
    }

    /// How many notifications wait in all queues.
    func queuedCount() throws(StoreError) -> Int { try self.store.queuedCount() }

    /// Forgets these notifications: out of their queues and out of the log.
    func delete(_ keys: [StoredNotificationKey], on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.delete(keys), on: eventLoop).map { _ in }
    }

    /// Empties every queue, the log and the feedback list; with `devices`, forgets tokens too.
    func clear(devices: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.clear(devices: devices), on: eventLoop).map { _ in }
    }
}
