import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's haproxy, where the cluster tests look for it.
public enum HAProxy {
    /// Its executable, or nil when it is not installed (`.ci/run` installs it).
    public static var path: String? {
        ["/usr/sbin/haproxy", "/usr/bin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
