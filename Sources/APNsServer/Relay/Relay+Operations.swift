import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// What the front doors change in the store: device sessions, the binary gateway, the feedback
/// service and the admin API (their reads go to the ``StoreReader``).
extension Relay {
    /// Issues `token` for an app on a device, in `environment`; `.registered`, or `.tokenTaken`
    /// when it is in use.
    func register(
        token: DeviceToken, topic: String, deviceID: String?, environment: APNsEnvironment?, on eventLoop: any EventLoop
    ) -> EventLoopFuture<StoreOutcome> {
        let phone = self.phone
        let operation = StoreOperation.register(token: token, topic: topic, deviceID: deviceID, environment: environment)
        return self.submit(operation, on: eventLoop).map { outcome in
            if outcome == .registered { phone.ownDevices.issued(token, to: deviceID) }
            return outcome
        }
    }

    /// Unregisters `token` (the app was removed); the future holds when (ms since the UNIX epoch).
    func unregister(_ token: DeviceToken, on eventLoop: any EventLoop) -> EventLoopFuture<Int64> {
        self.submit(.unregister(token: token), on: eventLoop).flatMapThrowing { outcome in
            guard case .unregistered(let timestamp) = outcome else {
                throw ServerError(.store, subject: "unregister", "unexpected store outcome \(outcome)")
            }
            return timestamp
        }
    }

    /// A device acknowledged a notification: it leaves its queue.
    func acknowledge(uniqueID: String, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.acknowledge(uniqueID: uniqueID), on: eventLoop).map { _ in }
    }

    /// Which tokens a push may go to, and how long a notification is kept at most.
    var tokenPolicy: TokenPolicy { self.store.configuration.tokenPolicy }
    /// The environment a token registered without one belongs to (`--environment`'s).
    var defaultEnvironment: APNsEnvironment { self.store.configuration.defaultEnvironment }
    var maximumStorageSeconds: Int64 { self.store.configuration.maximumStorageSeconds }

    /// Now, on the store's clock, in seconds since the UNIX epoch.
    var nowSeconds: Int64 { self.store.configuration.clock() / 1000 }

    /// The status a binary notification is refused with before it is submitted, when the store
    /// would refuse its token: everything a connection sends after a bad notification must be
    /// discarded, so the gateway cannot wait for the commit to find out. A token not issued (the
    /// registered policy), of another app (a topic) or of the other environment is refused; an
    /// unregistered one is taken silently and reported by the feedback service, as APNs did.
    /// Without a topic under the open policy (`--auth none`) the store is not read here: a read
    /// per frame cost the gateway a tenth of its rate, and a token of the other environment is
    /// then refused (status 8) at the commit instead, after what was sent before it.
    func binaryTokenRefusal(for notification: Notification) throws(StoreError) -> BinaryStatus? {
        guard self.tokenPolicy == .registered || notification.topic != nil else { return nil }
        return try self.store.tokenRefusal(
            for: notification.token, topic: notification.topic, environment: notification.environment
        ).flatMap(Self.binaryRefusal(for:))
    }

    // MARK: The feedback service and the admin API

    /// The feedback service handed `entries` to a provider: they leave the list.
    func clearFeedback(_ entries: [FeedbackEntry], on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.clearFeedback(entries), on: eventLoop).map { _ in }
    }

    /// Forgets notifications (out of their queues and the log) and rejected requests.
    func delete(
        _ keys: [StoredNotificationKey], rejections: [RejectionKey] = [], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        guard !rejections.isEmpty else { return self.submit(.delete(keys), on: eventLoop).map { _ in } }
        return self.submit(.delete(keys), on: eventLoop).flatMap { _ in
            self.submit(.deleteRejections(rejections), on: eventLoop).map { _ in }
        }
    }

    /// Moves what has expired out of the queues now (after the clock moved).
    func sweep(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.sweepExpired, on: eventLoop).map { _ in }
    }

    /// Empties every queue, the log and the feedback list; with `devices`, forgets tokens too
    /// (the store's part of a ``Reset``).
    func clearStore(devices: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        self.submit(.clear(devices: devices), on: eventLoop).map { _ in }
    }
}
