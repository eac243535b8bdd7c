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
            try StoreMigration.migrate(self.environment)
            let room = configuration.durability == .relaxed ? MapRoom() : nil
            self.writer = try StoreWriter(
                environment: self.environment, configuration: configuration, logger: logger, room: room, observer: observer)
            let dataFile = (configuration.directory as NSString).appendingPathComponent("data.mdb")
            let environment = self.environment
            self.prefaulter = room.flatMap { MapPrefaulter(environment: environment, dataFile: dataFile, room: $0) }
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
            var sequences: [UInt64] = []
            try txn.scan(self.environment.queue, from: prefix) { key, _ in
                guard sequences.count < limit, key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
                sequences.append(StoreKeys.sequence(ofQueueKey: key))
                return true
            }
            var found: [QueuedNotification] = []
            found.reserveCapacity(sequences.count)
            for sequence in sequences {
                let notification = try txn.withValue(self.environment.log, key: StoreKeys.logKey(sequence: sequence)) {
                    value throws(StoreError) in try LogValue.decode(value)
                }
                guard let notification else { throw .corruptRecord("queued notification missing from the log") }
                found.append(QueuedNotification(sequence: sequence, notification: notification))
            }
            return found
        }
    }

    /// Notifications that left the queues (delivered, expired, discarded, replaced, dropped),
    /// newest first by when they left.
    public func logged(limit: Int = .max) throws(StoreError) -> [LoggedNotification] {
        try self.read { txn throws(StoreError) in
            var found: [LoggedNotification] = []
            try txn.scan(self.environment.history, reverse: true) { _, value throws(StoreError) in
                guard found.count < limit else { return false }
                let entry = try HistoryEntry(value)
                let notification = try txn.withValue(self.environment.log, key: StoreKeys.logKey(sequence: entry.sequence)) {
                    value throws(StoreError) in try LogValue.decode(value)
                }
                // Deleted by hand: its history entry stays until the history is trimmed.
                guard let notification else { return true }
                found.append(
                    LoggedNotification(sequence: entry.sequence, status: entry.status, at: entry.at, notification: notification))
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

    /// The spell in which commits fail (the map or the disk full), while it lasts: nil once a
    /// commit writes again.
    public var outage: StoreOutage? { self.writer.outage.withLock { $0 } }

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
