import APNsCore
import CLMDB
import Foundation

/// A transaction handle, valid only inside the closure that received it.
struct Transaction {
    let txn: OpaquePointer
    let mapSize: Int

    /// The transaction's id: a write's own, a read's snapshot.
    var id: UInt64 { UInt64(mdb_txn_id(self.txn)) }

    func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws(StoreError) -> [UInt8]? {
        try self.withValue(dbi, key: key) { Array($0) }
    }

    func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8]) throws(StoreError) {
        let code = key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                var keyVal = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var dataVal = MDB_val(
                    mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                return mdb_put(self.txn, dbi, &keyVal, &dataVal, 0)
            }
        }
        try StoreError.check(code, "mdb_put", mapSize: self.mapSize)
    }

    /// Puts `value` under `key`, both read in place.
    func put(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(StoreError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        try StoreError.check(mdb_put(self.txn, dbi, &keyVal, &dataVal, 0), "mdb_put", mapSize: self.mapSize)
    }

    /// Puts `value` under `key`, which is usually past every key `dbi` holds (an index whose keys
    /// grow with time): then as `MDB_APPEND`, which skips the search and fills the last page
    /// instead of splitting it in the middle (half-empty pages, for keys that only grow); otherwise
    /// as any put.
    func putGrowing(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(StoreError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let appended = mdb_put(self.txn, dbi, &keyVal, &dataVal, UInt32(MDB_APPEND))
        // MDB_KEYEXIST: the key is not past the last one; a put finds its place.
        guard appended == MDB_KEYEXIST else { return try StoreError.check(appended, "mdb_put", mapSize: self.mapSize) }
        try self.put(dbi, key: key, value: value)
    }

    /// Puts a value of `size` bytes under `key`, written in place by `write` into LMDB's own page
    /// (`MDB_RESERVE`: no copy of the value is made).
    func reserve(
        _ dbi: MDB_dbi, key: UnsafeRawBufferPointer, size: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(StoreError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: size, mv_data: nil)
        try StoreError.check(mdb_put(self.txn, dbi, &keyVal, &dataVal, UInt32(MDB_RESERVE)), "mdb_put", mapSize: self.mapSize)
        guard let base = dataVal.mv_data else { throw .lmdb(code: -1, operation: "mdb_put(MDB_RESERVE)") }
        write(UnsafeMutableRawBufferPointer(start: base, count: size))
    }

    /// ``reserve(_:key:size:_:)`` for a key usually past every key `dbi` holds, as ``putGrowing(_:key:value:)`` puts.
    func reserveGrowing(
        _ dbi: MDB_dbi, key: UnsafeRawBufferPointer, size: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(StoreError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: size, mv_data: nil)
        let appended = mdb_put(self.txn, dbi, &keyVal, &dataVal, UInt32(MDB_RESERVE) | UInt32(MDB_APPEND))
        guard appended != MDB_KEYEXIST else { return try self.reserve(dbi, key: key, size: size, write) }
        try StoreError.check(appended, "mdb_put", mapSize: self.mapSize)
        guard let base = dataVal.mv_data else { throw .lmdb(code: -1, operation: "mdb_put(MDB_RESERVE)") }
        write(UnsafeMutableRawBufferPointer(start: base, count: size))
    }

    /// Gets the value under `key`, read in place for `body` (valid only inside it); nil when absent.
    func withValue<T>(
        _ dbi: MDB_dbi, key: [UInt8], _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        var keyVal = MDB_val()
        var dataVal = MDB_val()
        let code = key.withUnsafeBytes { keyBytes -> Int32 in
            keyVal = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_get(self.txn, dbi, &keyVal, &dataVal)
        }
        if code == MDB_NOTFOUND { return nil }
        try StoreError.check(code, "mdb_get")
        return try body(UnsafeRawBufferPointer(start: dataVal.mv_data, count: dataVal.mv_size))
    }

    /// Deletes `key`; returns whether it was there.
    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: [UInt8]) throws(StoreError) -> Bool {
        let code = key.withUnsafeBytes { keyBytes in
            var keyVal = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            return mdb_del(self.txn, dbi, &keyVal, nil)
        }
        if code == MDB_NOTFOUND { return false }
        try StoreError.check(code, "mdb_del", mapSize: self.mapSize)
        return true
    }

    /// Empties a database (it stays open).
    func empty(_ dbi: MDB_dbi) throws(StoreError) {
        try StoreError.check(mdb_drop(self.txn, dbi, 0), "mdb_drop", mapSize: self.mapSize)
    }

    /// The bytes of the pages a database's tree holds now (branch, leaf and overflow pages).
    func bytesInUse(_ dbi: MDB_dbi) throws(StoreError) -> Int {
        var stat = MDB_stat()
        try StoreError.check(mdb_stat(self.txn, dbi, &stat), "mdb_stat")
        return Int(stat.ms_psize) * (stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages)
    }

    /// The number of entries in a database.
    func count(_ dbi: MDB_dbi) throws(StoreError) -> Int {
        var stat = MDB_stat()
        try StoreError.check(mdb_stat(self.txn, dbi, &stat), "mdb_stat")
        return stat.ms_entries
    }

    /// Visits entries in key order from the first key `>= start` (or, with `reverse`, from the
    /// last key backwards, ignoring `start`); stops when `body` returns false.
    func scan(
        _ dbi: MDB_dbi,
        from start: [UInt8] = [],
        reverse: Bool = false,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws(StoreError) -> Bool
    ) throws(StoreError) {
        var cursor: OpaquePointer?
        try StoreError.check(mdb_cursor_open(self.txn, dbi, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var keyVal = MDB_val()
        var dataVal = MDB_val()
        var code: Int32
        if reverse {
            code = mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_LAST)
        } else if start.isEmpty {
            code = mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_FIRST)
        } else {
            code = start.withUnsafeBytes { startBytes in
                keyVal = MDB_val(mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
                return mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_SET_RANGE)
            }
        }
        while code == MDB_SUCCESS {
            let key = UnsafeRawBufferPointer(start: keyVal.mv_data, count: keyVal.mv_size)
            let value = UnsafeRawBufferPointer(start: dataVal.mv_data, count: dataVal.mv_size)
            guard try body(key, value) else { return }
            code = mdb_cursor_get(cursor, &keyVal, &dataVal, reverse ? MDB_PREV : MDB_NEXT)
        }
        if code != MDB_NOTFOUND { try StoreError.check(code, "mdb_cursor_get") }
    }
}
