import APNsCore
import Foundation
import Logging
import Synchronization

/// The durable home of accepted notifications: per-device queues in LMDB, an expiry index, and a
/// log of what left undelivered.
///
/// Writes go through one writer thread with group commit (``submit(_:completion:)``); reads run on
/// the caller's thread in their own read transaction.
public final class NotificationStore: Sendable {
    public let configuration: StoreConfiguration
    let environment: LMDBEnvironment
    private let writer: StoreWriter
    /// Relaxed mode only: keeps the map's next pages ready ahead of the writer.
    private let prefaulter: MapPrefaulter?
    /// This process's claim on the data directory (one emulator per directory).
    private let lock: DataDirectoryLock
    /// Readers in flight, and whether the store is closed; `close()` waits for readers to leave.
    private let readers = Mutex((count: 0, closed: false))

    /// Opens (or creates) the store in `configuration.directory` and starts its writer.
    ///
    /// - Parameter observer: told of every commit on the thread that made it (the writer, or one
    ///   that submitted with `commitHereIfIdle`), after it is durable and before its submitters
    ///   hear of it; must be quick and must not wait for the store.
    public init(
        configuration: StoreConfiguration,
        logger: Logger,
        observer: (@Sendable (StoreCommit) -> Void)? = nil
    ) throws(StoreError) {
        self.configuration = configuration
        // Private to this user: the store holds every payload and web apps' private keys.
        do {
            if let warning = try PrivateFiles.directory(configuration.directory) {
                logger.warning("the data directory is not private", metadata: ["store.warning": "\(warning)"])
            }
        } catch {
            throw .dataDirectory(path: configuration.directory, reason: error.description)
        }
        let lock = try DataDirectoryLock.acquire(configuration.directory)
        self.lock = lock
        do {
            self.environment = try LMDBEnvironment.open(
                directory: configuration.directory,
                mapSize: configuration.mapSizeBytes,
                sync: configuration.durability == .durable
            )
        } catch {
            lock.release()
            throw error
        }
        do {
            self.writer = try StoreWriter(
                environment: self.environment, configuration: configuration, logger: logger, observer: observer)
            let dataFile = (configuration.directory as NSString).appendingPathComponent("data.mdb")
            self.prefaulter =
                configuration.durability == .relaxed ? MapPrefaulter(environment: self.environment, dataFile: dataFile) : nil
        } catch {
            self.environment.close()
            lock.release()
            throw error
        }
    }

    /// Queues operations for the next group commit. `completion` runs on the writer thread once
    /// the transaction holding them has committed (and, when durable, synced), or failed.
    ///
    /// - Parameter commitHereIfIdle: in relaxed mode, when the writer is asleep, commit on this
    ///   thread before returning (and run `completion` and the observer here) rather than wake it:
    ///   for a caller that holds no lock and whose completion only hands off (the accept path).
    public func submit(
        _ operations: [StoreOperation],
        commitHereIfIdle: Bool = false,
        completion: @escaping @Sendable (Result<[StoreOutcome], StoreError>) -> Void
    ) {
        self.writer.submit(operations, commitHereIfIdle: commitHereIfIdle, completion: completion)
    }

    /// Async form of ``submit(_:completion:)``.
    public func submit(_ operations: [StoreOperation]) async throws -> [StoreOutcome] {
        try await withCheckedThrowingContinuation { continuation in
            self.submit(operations) { continuation.resume(with: $0) }
        }
    }

    /// The notifications queued for `token`, oldest first.
    public func queued(for token: DeviceToken, limit: Int = .max) throws(StoreError) -> [QueuedNotification] {
        try self.read { txn throws(StoreError) in
            let prefix = StoreKeys.queuePrefix(token)
            var found: [QueuedNotification] = []
            try txn.scan(self.environment.queue, from: prefix) { key, value throws(StoreError) in
                guard found.count < limit, key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
                found.append(
                    QueuedNotification(
                        sequence: StoreKeys.sequence(ofQueueKey: key), notification: try NotificationCodec.decode(value))
                )
                return true
            }
            return found
        }
    }

    /// Notifications that left the queues (delivered, expired, discarded, replaced, dropped), newest first.
    public func logged(limit: Int = .max) throws(StoreError) -> [LoggedNotification] {
        try self.read { txn throws(StoreError) in
            var found: [LoggedNotification] = []
            try txn.scan(self.environment.log, reverse: true) { key, value throws(StoreError) in
                guard found.count < limit else { return false }
                guard key.count == 8, value.count > 9, let status = LogStatus(rawValue: value[0]) else {
                    throw .corruptRecord("log entry")
                }
                found.append(
                    LoggedNotification(
                        sequence: key.readBigEndianUInt64(at: 0),
                        status: status,
                        at: Int64(bitPattern: value.readBigEndianUInt64(at: 1)),
                        notification: try NotificationCodec.decode(UnsafeRawBufferPointer(rebasing: value[9...]))
                    )
                )
                return true
            }
            return found
        }
    }

    /// The newest `limit` rejected requests as ``StoreOperation/recordRejection(id:record:)``
    /// kept them, oldest first.
    public func rejections(limit: Int = .max) throws(StoreError) -> [(key: RejectionKey, record: [UInt8])] {
        try self.read { txn throws(StoreError) in
            var found: [(key: RejectionKey, record: [UInt8])] = []
            try txn.scan(self.environment.rejections, reverse: true) { key, value in
                guard found.count < limit else { return false }
                found.append((RejectionKey(bytes: key), Array(value)))
                return true
            }
            return found.reversed()
        }
    }

    /// Counters of the writer's commits so far.
    public var statistics: StoreStatistics { self.writer.statistics.withLock { $0 } }

    /// How many notifications are queued across all devices.
    public func queuedCount() throws(StoreError) -> Int {
        try self.read { txn throws(StoreError) in try txn.count(self.environment.queue) }
    }

    /// Commits what was submitted, stops the writer and closes LMDB. Later calls fail with `.closed`.
    public func close() {
        let first = self.readers.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        self.writer.close()
        self.prefaulter?.stop()
        while self.readers.withLock({ $0.count }) > 0 { Thread.yieldProcessor() }
        self.environment.close()
        self.lock.release()
    }

    func read<T>(_ body: (Transaction) throws(StoreError) -> T) throws(StoreError) -> T {
        let open = self.readers.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.count += 1
            return true
        }
        guard open else { throw .closed }
        defer { self.readers.withLock { $0.count -= 1 } }
        return try self.environment.read(body)
    }
}

extension Thread {
    /// Lets another thread run while waiting for a short-lived condition.
    static func yieldProcessor() { _ = sched_yield() }
}
