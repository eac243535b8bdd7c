import APNsCore
import APNsDevice
import APNsStore
import Logging
import NIOCore
import Synchronization

/// APNs' broadcast channels for this emulator's environment: the ``ChannelBook`` in memory
/// under one lock, every change written to the store and answered once durable.
///
/// Thread-safe.
public final class BroadcastChannels: Sendable {
    let store: NotificationStore
    let clock: @Sendable () -> Int64
    let logger: Logger
    let book: Mutex<ChannelBook>
    private let ids: Mutex<APNsIDGenerator>

    init(store: NotificationStore, clock: @escaping @Sendable () -> Int64, logger: Logger, shard: Shard? = nil) {
        self.ids = Mutex(APNsIDGenerator(shard: shard))
        self.store = store
        self.clock = clock
        self.logger = logger
        var book = ChannelBook()
        do {
            book = try store.channelBook()
        } catch {
            logger.warning("could not read the broadcast channels the store keeps", metadata: ["store.error": "\(error)"])
        }
        self.book = Mutex(book)
    }

    /// Creates a channel for `bundleID`; the future holds it once durable.
    func create(
        _ bundleID: String, _ configuration: ChannelConfiguration, in environment: APNsEnvironment? = nil,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Result<BroadcastChannel, Reason>> {
        let now = self.clock()
        return self.change(on: eventLoop) { book in
            var id = self.ids.withLock { ChannelID.random(using: &$0) }
            // Ids never repeat; and none holds "/", so one reads as one segment of a URL path.
            while book.channels[id] != nil || id.contains("/") { id = self.ids.withLock { ChannelID.random(using: &$0) } }
            return book.create(bundleID, configuration, id: id, now: now, in: environment).map { ($0, [.saveChannel($0)]) }
        }
    }

    /// Deletes channel `id` of `bundleID`.
    func delete(
        _ id: String, of bundleID: String, in environment: APNsEnvironment? = nil, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Result<BroadcastChannel, Reason>> {
        let now = self.clock()
        return self.change(on: eventLoop) { book in
            book.delete(id, of: bundleID, now: now, in: environment).map { ($0, [.saveChannel($0)]) }
        }
    }

    /// Takes a broadcast: the channel as it is after it, or why not. `fanOut` runs under the
    /// lock once the broadcast is taken, so broadcasts on a channel reach its subscribers in
    /// the order they were taken; its store changes are submitted before the channel's, so the
    /// future (completing after the channel's commit) completes after theirs too.
    func publish(
        _ push: BroadcastPush, to bundleID: String, uniqueID: String, in environment: APNsEnvironment? = nil,
        on eventLoop: any EventLoop, fanOut: (BroadcastChannel) -> Void
    ) -> EventLoopFuture<Result<BroadcastChannel, Reason>> {
        let now = self.clock()
        return self.change(on: eventLoop) { book in
            book.publish(push, to: bundleID, uniqueID: uniqueID, now: now, in: environment).map { channel in
                fanOut(channel)
                return (channel, [.saveChannel(channel)])
            }
        }
    }

    /// Takes a channel as the shard that owns it has it; `fanOut` runs under the lock after, as
    /// a publish's does. The future completes once it is durable.
    func adopt(
        _ channel: BroadcastChannel, on eventLoop: any EventLoop, fanOut: (BroadcastChannel) -> Void
    ) -> EventLoopFuture<Result<BroadcastChannel, Reason>> {
        self.change(on: eventLoop) { book in
            book.adopt(channel)
            fanOut(channel)
            return .success((channel, [.saveChannel(channel)]))
        }
    }

    /// Turns `bundleID`'s broadcast capability on or off (off deletes its channels).
    func setEnabled(_ bundleID: String, _ enabled: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<[BroadcastChannel]> {
        let now = self.clock()
        return self.change(on: eventLoop) { book -> Result<([BroadcastChannel], [StoreOperation]), Reason> in
            let deleted = book.setEnabled(bundleID, enabled, now: now)
            return .success(
                (deleted, deleted.map { .saveChannel($0) } + [.saveBroadcastSetting(bundleID: bundleID, enabled: enabled)]))
        }.flatMapThrowing { result in try result.get() }
    }

    /// Reads the book under the lock.
    func read<T>(_ body: (ChannelBook) -> T) -> T {
        self.book.withLock { body($0) }
    }

    /// Forgets every channel (a full reset; the store empties its own copy).
    func removeAll() {
        self.book.withLock { $0.removeAll() }
    }

    /// Changes the book under the lock and submits the change's writes in the same order; the
    /// future holds the answer once they are durable.
    private func change<T: Sendable>(
        on eventLoop: any EventLoop, _ body: (inout ChannelBook) -> Result<(T, [StoreOperation]), Reason>
    ) -> EventLoopFuture<Result<T, Reason>> {
        let promise = eventLoop.makePromise(of: Result<T, Reason>.self)
        let logger = self.logger
        // The book's rules change nothing when they refuse, so the change is made in place.
        self.book.withLock { book in
            switch body(&book) {
            case .failure(let reason):
                promise.succeed(.failure(reason))
            case .success((let answer, let operations)):
                self.store.submit(operations) { result in
                    switch result {
                    case .success(let outcomes):
                        if let refused = outcomes.lazy.compactMap({ outcome -> String? in
                            if case .refused(let why) = outcome { return why } else { return nil }
                        }).first {
                            logger.warning("could not save a broadcast channel", metadata: ["store.error": "\(refused)"])
                            promise.succeed(.failure(Reason.internalServerError.explained(refused)))
                        } else {
                            promise.succeed(.success(answer))
                        }
                    case .failure(let error):
                        logger.warning("could not save a broadcast channel", metadata: ["store.error": "\(error)"])
                        promise.succeed(.failure(Relay.reason(for: error)))
                    }
                }
            }
        }
        return promise.futureResult
    }
}

extension BroadcastChannels {
    /// Whether an activity of `bundleID` may subscribe to channel `id` now.
    func isSubscribable(_ id: String, of bundleID: String, now: Int64) -> Bool {
        self.read { $0.subscribable(id, of: bundleID, now: now) != nil }
    }
}
