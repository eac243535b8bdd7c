import CLMDB
import Synchronization

/// How far the disk has room for LMDB's map, in relaxed mode: there LMDB writes through a map of a
/// sparse file (`MDB_WRITEMAP`), and a write to a page the disk cannot back is not an error but a
/// SIGBUS, which loses the writer. ``MapPrefaulter`` allocates the file's blocks ahead of the
/// writer (`fallocate`); when the disk refuses, it notes how far it got, and the writer refuses a
/// batch that could reach past it (``StoreError/writeFailed(code:)``, ENOSPC) instead of writing it.
final class MapRoom: Sendable {
    /// The end of the file's allocated blocks once the disk refused more; `Int.max` while it has not.
    let allocatedEnd = Atomic<Int>(.max)
    /// What any commit may add besides its notifications (the pages each database's path rewrites).
    static let commitSlack = 512 << 10

    /// Whether `batch` could write past the blocks the disk gave: only asked once it refused some.
    func refuses(_ operations: some Sequence<StoreOperation>, environment: LMDBEnvironment) -> Bool {
        let end = self.allocatedEnd.load(ordering: .relaxed)
        guard end != .max else { return false }
        var info = MDB_envinfo()
        var stat = MDB_stat()
        guard mdb_env_info(environment.env, &info) == 0, mdb_env_stat(environment.env, &stat) == 0 else { return false }
        let used = (Int(info.me_last_pgno) + 1) * Int(stat.ms_psize)
        return used + Self.commitSlack + operations.reduce(0) { $0 + Self.growth($1) } > end
    }

    /// A generous guess at what an operation adds to the map: a notification is written in the
    /// log, its queue, the expiry and unique indexes, with their pages' overhead.
    private static func growth(_ operation: StoreOperation) -> Int {
        switch operation {
        case .accept(let notification), .acceptForConnectedDevice(let notification), .record(let notification, _):
            return 4 * (notification.payload.count + 256)
        default:
            return 4096
        }
    }
}
