import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a data directory while an emulator uses it: LMDB itself lets several
/// processes share an environment, so a second emulator on the same directory would silently
/// share the store and split the journal. The lock is `flock` on `emulator.lock` (released by the
/// kernel however the process ends), which also holds the holder's pid for the message.
public final class DataDirectoryLock: Sendable {
    static let fileName = "emulator.lock"
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock, or throws naming the process that holds it.
    public static func acquire(_ directory: String) throws(StoreError) -> DataDirectoryLock {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .dataDirectory(path: directory, reason: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        // One made before files were private.
        fchmod(descriptor, 0o600)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            let who = holder.isEmpty ? "another emulator" : "another emulator (pid \(holder))"
            throw .dataDirectory(
                path: directory, reason: "\(who) is using it; stop that one, or give this one another --data-dir")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DataDirectoryLock(descriptor: descriptor)
    }

    /// Lets the directory go. Unlocked before it is closed: a child process forked meanwhile
    /// (a test spawning a command) shares the open file until it execs, and closing alone would
    /// leave the lock held by that copy, so reopening the directory at once could fail.
    public func release() {
        _ = flock(self.descriptor, LOCK_UN)
        close(self.descriptor)
    }
}
