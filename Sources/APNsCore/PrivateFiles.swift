#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and directories private to the user who runs the emulator, whatever the umask: the
/// store holds every payload and web apps' private keys, the ports file the admin token.
/// Directories are 0700, files 0600.
public enum PrivateFiles {
    /// Why a directory or file could not be made private, in words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `path` (and its parents) 0700 if missing; an existing directory this user owns
    /// with wider permissions is tightened. Returns a warning for one it cannot tighten (another
    /// user's, or a read-only file system), nil when private.
    /// `mode` 0o755 for a directory others must read from (the development CA's).
    @discardableResult
    public static func directory(_ path: String, mode: mode_t = 0o700) throws(Failure) -> String? {
        var info = stat()
        if stat(path, &info) != 0 {
            let parent = Self.parent(of: path)
            if !parent.isEmpty, stat(parent, &info) != 0 {
                // Parents are made as mkdir -p makes them; only the last is the emulator's own.
                try Self.makeParents(parent)
            }
            guard mkdir(path, mode) == 0 || errno == EEXIST else {
                throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
        return Self.tighten(path, to: mode)
    }

    /// Narrows an existing file or directory to `mode` when it allows more than `mode` does; a
    /// warning when it cannot (not this user's).
    @discardableResult
    public static func tighten(_ path: String, to mode: mode_t) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & 0o777 & ~mode != 0 else { return nil }
        // A shared directory (/tmp's sticky bit) or another user's is named, never changed.
        if info.st_uid == geteuid() && info.st_mode & S_ISVTX == 0 && chmod(path, mode) == 0 { return nil }
        let octal = String(info.st_mode & 0o777, radix: 8)
        return
            "\(path) is readable by other users (mode \(octal)) and could not be narrowed to \(String(mode, radix: 8)): \(String(cString: strerror(errno))); keep it private (chmod \(String(mode, radix: 8)) \(path))"
    }

    /// Writes `bytes` to `path` whole (a temporary name, then renamed), readable by this user alone.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let partial = path + ".partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // An earlier partial file may have had wider permissions.
        fchmod(descriptor, 0o600)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Self.systemWrite(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
        guard rename(partial, path) == 0 else {
            throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private static func makeParents(_ path: String) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}
