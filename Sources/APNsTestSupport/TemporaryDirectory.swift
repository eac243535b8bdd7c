import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh directory under the system's temporary folder, removed by ``remove()``; and in any
/// case when the test process exits: every one lives under the process's own folder
/// (`apns-emulator-tests-<pid>`), removed at exit, so a test that forgets, or fails before, its
/// `remove()` leaves nothing behind. Folders of processes that died without exiting are removed
/// by the next process that makes one.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "apns-emulator-test") throws {
        self.path = "\(Self.processFolder)/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func appending(_ name: String) -> String { "\(self.path)/\(name)" }

    public func remove() throws {
        try FileManager.default.removeItem(atPath: self.path)
    }

    static let folderPrefix = "apns-emulator-tests-"

    /// This process's folder, made (and its removal at exit arranged) on first use.
    static let processFolder: String = {
        let base = FileManager.default.temporaryDirectory.path
        removeFoldersOfDeadProcesses(in: base)
        let folder = Self.folder(of: getpid(), in: base)
        // Open to every user: a test may run the emulator as an ordinary user inside it.
        try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        atexit {
            try? FileManager.default.removeItem(
                atPath: TemporaryDirectory.folder(of: getpid(), in: FileManager.default.temporaryDirectory.path))
        }
        return folder
    }()

    static func folder(of pid: pid_t, in base: String) -> String { "\(base)/\(folderPrefix)\(pid)" }

    /// Folders left by test processes that were killed (no exit ran to remove them).
    static func removeFoldersOfDeadProcesses(in base: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            guard let pid = pid_t(name.dropFirst(folderPrefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: "\(base)/\(name)") }
        }
    }
}
