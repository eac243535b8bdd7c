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
    private let state = Mutex((stopped: false, populatedTo: 0))
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread, or returns nil when LMDB's map cannot be found.
    init?(environment: LMDBEnvironment, dataFile: String) {
        guard let map = Self.mapping(of: dataFile, size: environment.mapSize) else { return nil }
        self.environment = environment
        self.map = map
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
            var from = max(self.state.withLock { $0.populatedTo }, used)
            while from < target, !self.state.withLock({ $0.stopped }) {
                let length = min(Self.step, target - from)
                guard let base = self.map.base, madvise(base + from, length, MADV_POPULATE_READ) == 0 else { return }
                from += length
                self.state.withLock { $0.populatedTo = from }
            }
        }
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
