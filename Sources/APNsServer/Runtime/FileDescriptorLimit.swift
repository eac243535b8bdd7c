#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files. An ordinary user's shell starts programs with a soft limit
/// of 1024 (root's here: 20000), which a load test's connections, or a test suite's emulators,
/// pass at once; the hard limit is what the user may raise it to without privilege, as servers
/// commonly do at start (Go's runtime does it for every program).
public enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit; returns the limit now in force (nil if it cannot be read).
    @discardableResult
    public static func raiseToHard() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 ? UInt64(raised.rlim_cur) : UInt64(limit.rlim_cur)
    }
}
