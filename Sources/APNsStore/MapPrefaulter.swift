import CLMDB
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the pages just past the end of LMDB's data ahead of the writer, on a thread of its own.
///
/// In relaxed mode LMDB writes through its map of a file sized to the whole map (`MDB_WRITEMAP`),
/// so the first write to each new page faults and the kernel zero-fills it: under load that was a
/// fifth of the store writer thread's time (`perf record -g`, `filemap_fault` and `memset`), on the
/// one thread every accepted notification waits for. This thread has the kernel read the next
/// pages in (`madvise(MADV_POPULATE_READ)`: the zero-filling, without touching a byte of the file
/// or dirtying a page), a few mebibytes ahead of LMDB's last used page, so the writer's first write
/// to each is a light fault. (`MADV_POPULATE_WRITE` dirtied the pages too and cost more CPU than it
/// saved.)
/// Where the kernel lacks it (before Linux 5.14) it stops and the writer faults as before.
final class MapPrefaulter: Sendable {
    /// How far past LMDB's last used page the map is kept ready.
    static let ahead = 16 << 20
    /// How much one call prepares.
    static let step = 4 << 20

    private let environment: LMDBEnvironment
    private let map: UnsafeMutableRawBufferPointer.SendableView
    /// The data file, to allocate its blocks ahead of the writer (-1 if it could not be opened).
    private let file: Int32
    /// Where the writer learns how far the disk had room.
    private let room: MapRoom
    private let state = Mutex((stopped: false, populatedTo: 0))
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread, or returns nil when LMDB's map cannot be found.
    init?(environment: LMDBEnvironment, dataFile: String, room: MapRoom) {
        guard let map = Self.mapping(of: dataFile, size: environment.mapSize) else { return nil }
        self.environment = environment
        self.map = map
        self.room = room
        self.file = open(dataFile, O_RDWR | O_CLOEXEC)
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.name = "apns-store-prefault"
        thread.start()
    }

    /// Stops the thread and waits for it; before the environment closes.
    func stop() {
        self.state.withLock { $0.stopped = true }
        self.wakeup.signal()
        self.finished.wait()
        if self.file >= 0 { close(self.file) }
    }

    private func run() {
        while !self.state.withLock({ $0.stopped }) {
            // Every 20 ms: at 150 MB/s of notifications LMDB grows 3 MB meanwhile, well inside `ahead`.
            _ = self.wakeup.wait(timeout: .now() + .milliseconds(20))
            var info = MDB_envinfo()
            var stat = MDB_stat()
            guard mdb_env_info(self.environment.env, &info) == 0, mdb_env_stat(self.environment.env, &stat) == 0 else { continue }
            let used = (Int(info.me_last_pgno) + 1) * Int(stat.ms_psize)
            let target = min(used + Self.ahead, self.map.count)
            // Near a full disk, the disk's blocks first: a page it cannot back would be a SIGBUS in the writer.
            guard self.allocateWhenLow(from: used, to: target) else { continue }
            var from = max(self.state.withLock { $0.populatedTo }, used)
            while from < target, !self.state.withLock({ $0.stopped }) {
                let length = min(Self.step, target - from)
                guard let base = self.map.base, madvise(base + from, length, MADV_POPULATE_READ) == 0 else { return }
                from += length
                self.state.withLock { $0.populatedTo = from }
            }
        }
    }

    /// Free space below which the file's blocks are allocated ahead of the writer: what `ahead`
    /// and a few seconds of growth need. Above it nothing is allocated (fallocate and the
    /// extents it leaves cost the writer's run a few percent of its CPU, for nothing).
    static let lowSpace = 128 << 20

    /// Where the disk is nearly full, allocates the file's blocks from `start` to `end` (blocks
    /// already allocated cost nothing); false, with the room's end noted, when the disk refuses.
    private func allocateWhenLow(from start: Int, to end: Int) -> Bool {
        var disk = statvfs()
        guard self.file >= 0, end > start, fstatvfs(self.file, &disk) == 0,
            Int(disk.f_bavail) * Int(disk.f_frsize) < Self.lowSpace
        else {
            self.room.allocatedEnd.store(.max, ordering: .relaxed)
            return true
        }
        if self.allocate(start, end - start) {
            self.room.allocatedEnd.store(.max, ordering: .relaxed)
            return true
        }
        // How far it goes, 256 KiB at a time.
        let piece = 256 << 10
        var at = start
        while at < end, self.allocate(at, min(piece, end - at)) { at += piece }
        self.room.allocatedEnd.store(at, ordering: .relaxed)
        return false
    }

    /// Allocates the file's blocks for `length` bytes at `offset`; false when the disk has no room
    /// (a file system without `fallocate` is left as it was).
    private func allocate(_ offset: Int, _ length: Int) -> Bool {
        let code = posix_fallocate(self.file, off_t(offset), off_t(length))
        return !(code == ENOSPC || code == EDQUOT || code == EFBIG)
    }

    /// LMDB's map of `dataFile` in this process (from /proc/self/maps: LMDB does not say where it is).
    private static func mapping(of dataFile: String, size: Int) -> UnsafeMutableRawBufferPointer.SendableView? {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        let path = URL(fileURLWithPath: dataFile).resolvingSymlinksInPath().standardizedFileURL.path
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + path) || line.hasSuffix(" " + dataFile) {
            let range = line.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                Int(end - start) == size,
                let base = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            return .init(base: base, count: size)
        }
        return nil
    }
}

extension UnsafeMutableRawBufferPointer {
    /// A map's address and length, passed to the prefault thread: it only asks the kernel about
    /// the pages and never reads or writes them.
    struct SendableView: @unchecked Sendable {
        let base: UnsafeMutableRawPointer?
        let count: Int
    }
}
