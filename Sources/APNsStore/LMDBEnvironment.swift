import APNsCore
import CLMDB
import Foundation

/// An open LMDB environment and its named databases.
///
/// `@unchecked Sendable` is sound here: the struct holds only handles that LMDB documents as
/// usable from any thread (the environment with `MDB_NOTLS`, and DBI numbers fixed at open).
/// Write transactions are begun only by the store's writer thread.
struct LMDBEnvironment: @unchecked Sendable {
    let env: OpaquePointer
    let mapSize: Int
    let queue: MDB_dbi
    let expiry: MDB_dbi
    let unique: MDB_dbi
    /// Every notification's record, written once when it was accepted (``LogValue``).
    let log: MDB_dbi
    /// Each notification's leaving its queue (or entering the history at once), in that order:
    /// number u64 → sequence u64 · status u8 · at i64 (``HistoryEntry``). The log's statuses,
    /// and the order the history is trimmed in.
    let history: MDB_dbi
    /// What the phone made of a stored notification (its presentation, the user's response), as
    /// the journal encoded it: sequence u64 → record; it goes with the notification's record.
    let phone: MDB_dbi
    let meta: MDB_dbi
    let tokens: MDB_dbi
    let feedback: MDB_dbi
    /// Each app's settings, by device id and topic (``StoreKeys/appKey(_:)``).
    let apps: MDB_dbi
    /// Each app's Notification Center: app key, time presented, unique id.
    let delivered: MDB_dbi
    /// Broadcasts each app applied since its settings were last written: app key, then the
    /// store's sequence (``AppBroadcastDelta``, applied again in order when the app is read).
    let appBroadcasts: MDB_dbi
    /// Broadcast channels (``StoreKeys/channelKey(_:_:)``) and bundles with broadcast turned off.
    let channels: MDB_dbi
    /// Requests a provider got an error for, by journal id (time-ordered), as the journal encoded
    /// them: the journal's history of refusals across restarts.
    let rejections: MDB_dbi

    /// Opens (creating if needed) the environment in `directory`.
    static func open(directory: String, mapSize: Int, sync: Bool) throws(StoreError) -> LMDBEnvironment {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectory(path: directory, reason: "\(error)")
        }
        var envPointer: OpaquePointer?
        try StoreError.check(mdb_env_create(&envPointer), "mdb_env_create")
        guard let env = envPointer else { throw .lmdb(code: -1, operation: "mdb_env_create") }
        do throws(StoreError) {
            try StoreError.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
            try StoreError.check(mdb_env_set_maxdbs(env, 16), "mdb_env_set_maxdbs")
            try StoreError.check(mdb_env_set_maxreaders(env, 512), "mdb_env_set_maxreaders")
            var flags = UInt32(MDB_NOTLS)
            // Relaxed: write pages in place through the map and skip syncing (a periodic sync
            // follows). Durable keeps LMDB's pwrite+fdatasync, which on Linux beats msync of the map.
            if !sync { flags |= UInt32(MDB_NOSYNC) | UInt32(MDB_WRITEMAP) }
            let code = mdb_env_open(env, directory, flags, 0o600)
            if code == EACCES || code == ENOENT || code == EROFS {
                throw .dataDirectory(path: directory, reason: String(cString: mdb_strerror(code)))
            }
            try StoreError.check(code, "mdb_env_open(\(directory))")
            // A store made before files were private keeps its mode until narrowed here.
            for file in ["data.mdb", "lock.mdb"] { PrivateFiles.tighten(directory + "/" + file, to: 0o600) }
            var dead: Int32 = 0
            try StoreError.check(mdb_reader_check(env, &dead), "mdb_reader_check")

            var txn: OpaquePointer?
            try StoreError.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
            func openDB(_ name: String) throws(StoreError) -> MDB_dbi {
                var dbi: MDB_dbi = 0
                try StoreError.check(mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &dbi), "mdb_dbi_open(\(name))")
                return dbi
            }
            let environment: LMDBEnvironment
            do throws(StoreError) {
                environment = LMDBEnvironment(
                    env: env, mapSize: mapSize,
                    queue: try openDB("queue"), expiry: try openDB("expiry"), unique: try openDB("unique"),
                    log: try openDB("log"), history: try openDB("history"), phone: try openDB("phone"),
                    meta: try openDB("meta"), tokens: try openDB("tokens"),
                    feedback: try openDB("feedback"), apps: try openDB("apps"), delivered: try openDB("delivered"),
                    appBroadcasts: try openDB("app-broadcasts"), channels: try openDB("channels"),
                    rejections: try openDB("rejections")
                )
            } catch {
                mdb_txn_abort(txn)
                throw error
            }
            try StoreError.check(mdb_txn_commit(txn), "mdb_txn_commit", mapSize: mapSize)
            return environment
        } catch {
            mdb_env_close(env)
            throw error
        }
    }

    /// How many notifications `token`'s queue holds, counted from its keys.
    func queueLength(_ token: DeviceToken, _ txn: Transaction) throws(StoreError) -> Int {
        let prefix = StoreKeys.queuePrefix(token)
        var length = 0
        try txn.scan(self.queue, from: prefix) { key, _ in
            guard key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
            length += 1
            return true
        }
        return length
    }

    /// The snapshot (transaction id) the oldest read transaction open now sees, if any is open:
    /// pages freed by that transaction or later are not reused until it ends (mdb.c, mdb_find_oldest).
    func oldestReader() -> UInt64? {
        var oldest = UInt64.max
        // Each reader slot in use is a line "pid thread txnid", its txnid "-" when no transaction is open.
        _ = withUnsafeMutablePointer(to: &oldest) { pointer in
            mdb_reader_list(
                self.env,
                { message, context in
                    guard let message, let context,
                        let last = String(cString: message).split(separator: " ").last,
                        let txnid = UInt64(last.trimmingCharacters(in: .whitespacesAndNewlines))
                    else { return 0 }
                    let oldest = context.assumingMemoryBound(to: UInt64.self)
                    oldest.pointee = min(oldest.pointee, txnid)
                    return 0
                }, pointer)
        }
        return oldest == .max ? nil : oldest
    }

    /// The id of the last transaction committed.
    func lastTransaction() -> UInt64 {
        var info = MDB_envinfo()
        mdb_env_info(self.env, &info)
        return UInt64(info.me_last_txnid)
    }

    /// Unmaps the pages of the map this process has touched (they stay in the page cache, shared
    /// with the file, and come back on the next read): after a pass over the whole store (the
    /// journal's start), so that its resident memory is what it keeps, not every record it read.
    /// LMDB does not say where it mapped the file (`me_mapaddr` is set only for a fixed map), so
    /// the mapping of `dataFile` is looked up in /proc/self/maps.
    func releaseMappedPages(dataFile: String) {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        let path = URL(fileURLWithPath: dataFile).standardizedFileURL.path
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + path) {
            let range = line.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            _ = madvise(address, Int(end - start), MADV_DONTNEED)
        }
    }

    /// Closes the environment; no transaction may be open.
    func close() {
        mdb_env_close(self.env)
    }

    /// Flushes written data to disk (used by relaxed durability).
    func sync() throws(StoreError) {
        try StoreError.check(mdb_env_sync(self.env, 1), "mdb_env_sync")
    }

    /// Runs `body` in a read-only transaction; any thread.
    func read<T>(_ body: (Transaction) throws(StoreError) -> T) throws(StoreError) -> T {
        var txn: OpaquePointer?
        try StoreError.check(mdb_txn_begin(self.env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin(read)")
        guard let txn else { throw .lmdb(code: -1, operation: "mdb_txn_begin(read)") }
        defer { mdb_txn_abort(txn) }
        return try body(Transaction(txn: txn, mapSize: self.mapSize))
    }

    /// Every database, for what the map holds.
    var databases: [MDB_dbi] {
        [
            self.queue, self.expiry, self.unique, self.log, self.history, self.phone, self.meta, self.tokens, self.feedback,
            self.apps, self.delivered,
            self.appBroadcasts, self.channels, self.rejections,
        ]
    }

    /// The bytes the map's data holds now: every database's pages and the free list's own
    /// (pages freed and not yet reused are not counted: LMDB writes into them first).
    func bytesInUse(_ txn: Transaction) throws(StoreError) -> Int {
        // The free list is database 0.
        var total = 0
        for dbi in self.databases + [0] { total += try txn.bytesInUse(dbi) }
        return total
    }

    /// Runs `body` in a write transaction and commits it; inside a commit only (``StoreWriter`` holds its commit lock).
    /// On any error the transaction is aborted and nothing is written.
    func write<T>(_ body: (Transaction) throws(StoreError) -> T) throws(StoreError) -> T {
        var txn: OpaquePointer?
        try StoreError.check(mdb_txn_begin(self.env, nil, 0, &txn), "mdb_txn_begin(write)", mapSize: self.mapSize)
        guard let txn else { throw .lmdb(code: -1, operation: "mdb_txn_begin(write)") }
        let result: T
        do throws(StoreError) {
            result = try body(Transaction(txn: txn, mapSize: self.mapSize))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        // mdb_txn_commit frees the transaction whether or not it succeeds.
        try StoreError.check(mdb_txn_commit(txn), "mdb_txn_commit", mapSize: self.mapSize)
        return result
    }
}
