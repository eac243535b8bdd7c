import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Logging
import NIOCore
import Synchronization

/// Ties the front doors to the store and the connected devices: a validated notification goes
/// in, an outcome comes back once it is durable. One relay serves every interface; the front
/// doors change the store only through it (they read it through a ``StoreReader`` of their own), and the
/// store's outcomes become answers (HTTP/2 reasons, binary status bytes) here, in one place.
public final class Relay: Sendable {
    let store: NotificationStore
    let hub: DeliveryHub
    /// The emulated phone: what it takes of a push no device holds, and its local notifications.
    let phone: Phone
    /// Each device's power and connectivity (what the hub holds back).
    let power: DevicePowerBook
    private let batchers: [ObjectIdentifier: StoreBatcher]
    /// The last firing of due local notifications: each firing starts after the one before has
    /// stored what it took (``fireDue(on:)``).
    let lastFiring = Mutex<EventLoopFuture<Void>?>(nil)
    /// One of the emulator's event loops, for work that starts off them.
    var anyEventLoop: (any EventLoop)? { self.batchers.values.first?.eventLoop }
    /// This emulator's shard among several, if it is one.
    public var shard: Shard? { self.phone.ids.shard }

    /// The assembly (``Emulator``) makes the phone and the power book and hands
    /// the relay what it relays between. - Parameter group: the event loops the listeners run
    /// on; each gets its own batcher.
    init(
        store: NotificationStore, hub: DeliveryHub, phone: Phone, power: DevicePowerBook,
        group: any EventLoopGroup
    ) {
        (self.store, self.hub, self.phone, self.power) = (store, hub, phone, power)
        var batchers: [ObjectIdentifier: StoreBatcher] = [:]
        for loop in group.makeIterator() {
            batchers[ObjectIdentifier(loop)] = StoreBatcher(eventLoop: loop, store: store)
        }
        self.batchers = batchers
    }

    /// Stores `notification` and, once it is durable, hands it to its device if one is connected.
    /// The future completes on `eventLoop` after the commit. Call on `eventLoop`.
    public func accept(_ notification: Notification, on eventLoop: any EventLoop) -> EventLoopFuture<StoreOutcome> {
        let promise = eventLoop.makePromise(of: StoreOutcome.self)
        self.accept(notification, on: eventLoop) { promise.completeWith($0) }
        return promise.futureResult
    }

    /// ``accept(_:on:)`` with a completion in place of a future, called on `eventLoop` (the
    /// intake's path: a future and its maps cost allocations for every notification). Call on
    /// `eventLoop`.
    func accept(
        _ notification: Notification, on eventLoop: any EventLoop, completion: @escaping (Result<StoreOutcome, any Error>) -> Void
    ) {
        // Whether the device is connected is decided at acceptance: it matters for expiration 0.
        // A Live Activity token is reachable while its device is online: the phone itself takes its pushes.
        let activity =
            notification.pushType == .liveactivity
            && self.phone.activities.activityDevice(of: notification.token).map { self.power.power(of: $0).online } == true
        // A token no device holds is the phone's own: it presents the push at acceptance, so an
        // expiration of 0 (a web push's TTL 0) reaches it like a connected device's.
        let connected = !activity && self.hub.isConnected(notification.token)
        // A device a seed declared is the phone's own: it takes the push now if its power state lets it.
        let own = activity || connected ? nil : self.phone.ownDevices.ownDevice(of: notification.token)
        let ownPower = own.map { self.power.power(of: $0) }
        let deviceless =
            !activity && !connected
            && (ownPower.map { $0.online && $0.holds(notification.priority) == nil }
                ?? self.phone.notifications.presentsAtAcceptance(notification.token))
        // An own device that is online holds what its power state holds, as a connected device does.
        let online = activity || deviceless || connected || ownPower?.online == true
        guard let batcher = self.batchers[ObjectIdentifier(eventLoop)] else {
            // Every listener runs on the emulator's own group; anything else is a wiring mistake.
            return completion(
                .failure(ServerError(.store, subject: "relay", "submitted from an event loop outside the emulator's group")))
        }
        let (hub, phone) = (self.hub, self.phone)
        batcher.enqueue(online ? .acceptForConnectedDevice(notification) : .accept(notification)) { result in
            guard case .success(let outcome) = result, outcome.isTaken, !hub.deliver(notification) else {
                return completion(result)
            }
            // A token no device holds has no hand-over to wait for: the phone decides now. A Live
            // Activity token's pushes go to ActivityKit, not to the app, and the answer waits until
            // the phone's change is durable, so that every admin read after the 200 shows the push's
            // final outcome (read-your-writes). The push itself is durable either way: a phone change
            // that failed to save is applied again at the next start (resumeActivityPushes), so the
            // answer stays 200.
            if ownPower?.online == true, !deviceless, case .queued = outcome {
                // Online, and its priority held by the power state: stored for power considerations.
                phone.journal.held(uniqueID: notification.uniqueID, at: phone.clock())
            }
            // An offline device's Live Activity push waits in the store like its other pushes.
            let applied =
                deviceless || activity ? phone.takeUndelivered(notification, deviceless: deviceless, on: eventLoop) : nil
            if deviceless, case .queued = outcome {
                // Presented: delivered, out of the queue (expiry no longer touches it), before the answer.
                return batcher.enqueue(.acknowledge(uniqueID: notification.uniqueID)) { [self] _ in
                    completion(result)
                    // A priority-10 push wakes the device: what its power state held goes with it.
                    if let own, notification.priority == .immediate { self.release(device: own, all: true, on: eventLoop) }
                }
            }
            guard let applied, activity else { return completion(result) }
            applied.assumeIsolated().whenComplete { _ in completion(result) }
        }
    }

    /// Runs one store operation in the next group commit of `eventLoop`'s batch. Call on `eventLoop`.
    func submit(_ operation: StoreOperation, on eventLoop: any EventLoop) -> EventLoopFuture<StoreOutcome> {
        guard let batcher = self.batchers[ObjectIdentifier(eventLoop)] else {
            // Every listener runs on the emulator's own group; anything else is a wiring mistake.
            return eventLoop.makeFailedFuture(
                ServerError(.store, subject: "relay", "submitted from an event loop outside the emulator's group"))
        }
        return batcher.enqueue(operation)
    }

    /// BadDeviceToken for a token the store does not know, saying which of the reason's causes it is.
    static let notIssued = Reason.badDeviceToken.explained(
        "this emulator did not issue the token (serve --tokens registered takes only tokens it issued: POST /api/v1/devices or apns-emulator device)"
    )

    /// BadDeviceToken for a token sent to the other environment's endpoint, saying which build it
    /// came from and where it is valid (Apple: "verify … that the token matches the environment").
    static func otherEnvironment(_ environment: APNsEnvironment) -> Reason {
        let other: APNsEnvironment = environment == .development ? .production : .development
        return Reason.badDeviceToken.explained(
            "\(APNsEnvironment.otherEnvironmentLead)\(environment.buildName); it is valid at \(environment.endpointName) (\(environment.providerHost)), not at \(other.endpointName) (\(other.providerHost)) this request was sent to"
        )
    }

    /// How a provider is answered for what the store did with its notification: `nil` for 200,
    /// otherwise the reason and, for a 410, when the token stopped being valid.
    public static func refusal(for outcome: StoreOutcome) -> (reason: Reason, timestamp: Int64?)? {
        switch outcome {
        case .unknownToken: return (Self.notIssued, nil)
        case .tokenInOtherEnvironment(let environment): return (Self.otherEnvironment(environment), nil)
        case .tokenNotForTopic: return (.deviceTokenNotForTopic, nil)
        case .tokenUnregistered(let timestamp): return (.unregistered, timestamp)
        default: return nil
        }
    }

    /// The status a binary provider gets for what the store did: a token that is unknown (in the
    /// registered policy) or not for the topic is invalid (8). An unregistered token is taken
    /// silently and reported by the feedback service, as APNs did.
    public static func binaryRefusal(for outcome: StoreOutcome) -> BinaryStatus? {
        switch outcome {
        case .unknownToken, .tokenNotForTopic, .tokenInOtherEnvironment: return .invalidToken
        default: return nil
        }
    }

    /// The spell in which the store cannot write (its map or disk full), while it lasts.
    var storeOutage: StoreOutage? { self.store.outage }

    /// The reason a provider gets when the store could not take a notification.
    public static func reason(for error: any Error) -> Reason {
        switch error as? StoreError {
        case .mapFull, .writeFailed: return .serviceUnavailable
        case .closed: return .shutdown
        default: return .internalServerError
        }
    }
}

extension StoreOutcome {
    /// Whether the store took the notification for its device (queued, or to deliver once now).
    fileprivate var isTaken: Bool {
        switch self {
        case .queued, .deliverOnce: return true
        default: return false
        }
    }
}
