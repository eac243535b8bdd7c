import CLMDB

#if canImport(Glibc)
import Glibc
#endif

/// Everything that can go wrong in the store, with what a person needs to act on it.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The LMDB map is full: raise `--map-size` or drain queues. Nothing was written.
    case mapFull(mapSizeBytes: Int)
    /// Writing the data directory's file failed with `code`: ENOSPC or EDQUOT (the disk or the
    /// quota is full), EFBIG, or EIO (LMDB's word for a short write, which a disk filling up
    /// mid-commit gives). Nothing was written; writes succeed again once there is room.
    case writeFailed(code: Int32)
    /// An LMDB call failed.
    case lmdb(code: Int32, operation: String)
    /// A stored record could not be decoded.
    case corruptRecord(String)
    /// The data directory could not be prepared.
    case dataDirectory(path: String, reason: String)
    /// The store was closed before the operation ran.
    case closed
    /// This one operation could not be stored (it was refused, or failed alone); others were not affected.
    case refused(String)

    public var description: String {
        switch self {
        case .mapFull(let size):
            let shown = size >= 1 << 20 ? "\(size / (1 << 20)) MiB" : "\(size / 1024) KiB"
            return "the LMDB map is full (\(shown)); raise --map-size or let devices drain their queues"
        case .writeFailed(let code) where code == EIO:
            return
                "writing the data directory failed (a short write: its disk is full, or failing); free space there or move --data-dir"
        case .writeFailed(let code):
            return
                "the disk holding the data directory is full (\(String(cString: mdb_strerror(code)))); free space there or move --data-dir"
        case .lmdb(let code, let operation):
            return "LMDB \(operation) failed: \(String(cString: mdb_strerror(code))) (\(code))"
        case .corruptRecord(let what):
            return "a stored record is corrupt: \(what)"
        case .dataDirectory(let path, let reason):
            return "cannot use data directory \(path): \(reason)"
        case .closed:
            return "the store is closed"
        case .refused(let why):
            return "the store refused an operation: \(why)"
        }
    }

    /// Whether no operation can be written until something outside it changes: a batch that fails
    /// so is failed whole, at once, not retried operation by operation.
    public var failsEveryOperation: Bool { self.isOutage || self == .closed }

    /// Whether the store cannot write for want of room (its map or its disk full): an outage,
    /// which the store reports (``NotificationStore/outage``) until a write succeeds again.
    public var isOutage: Bool {
        switch self {
        case .mapFull, .writeFailed: return true
        default: return false
        }
    }

    /// Maps an LMDB return code to `nil` (success) or the error; the one place codes are read.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String, mapSize: Int = 0) throws(StoreError) {
        switch code {
        case MDB_SUCCESS: return
        case MDB_MAP_FULL: throw .mapFull(mapSizeBytes: mapSize)
        case ENOSPC, EDQUOT, EFBIG, EIO: throw .writeFailed(code: code)
        default: throw .lmdb(code: code, operation: operation())
        }
    }
}
