import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Starts programs with posix_spawn. Foundation's Process.run() was seen crashing (a memcpy past
/// a page end inside it) when tests started programs while much else ran; this path is small
/// enough to trust. Every child not yet waited for is killed when the test process exits, so a
/// test that throws before it stops what it started leaves no process behind.
public enum Spawn {
    /// Children started and not yet waited for.
    static let running = Mutex<Set<pid_t>>([])

    /// The children started and not yet waited for: what exit would kill now.
    public static var runningChildren: Set<pid_t> { Self.running.withLock { $0 } }

    /// Kills, at exit, the children still running (arranged once, with the first child).
    static let reaper: Void = {
        atexit {
            for pid in Spawn.running.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }()

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc
    /// module does not declare: looked up once.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// How a child ended.
    public struct Ending: Sendable, Equatable {
        /// The exit status, when it exited.
        public var status: Int32?
        /// The signal, when one killed it.
        public var signal: Int32?
    }

    /// Starts `arguments[0]` (looked up on PATH) with standard input from `stdin` (a file or a
    /// FIFO: the child waits until a writer opens it), standard output to `stdout` and standard error
    /// to `stderr` (files, created or truncated), and `environment` added to this process's.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null", stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        // Nothing else of this process goes to the child: an in-process emulator's listening
        // socket would otherwise stay bound in every program a test starts, and a restart on the
        // same port (a fixed --web-push-port) would find it in use.
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let code = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard code == 0 else { throw SubprocessError.exited("cannot start \(arguments[0]): \(String(cString: strerror(code)))") }
        _ = Self.reaper
        _ = Self.running.withLock { $0.insert(pid) }
        return pid
    }

    /// Waits for `pid` to end, on a thread of its own (waitpid blocks).
    static func wait(_ pid: pid_t) async -> Ending {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                _ = Spawn.running.withLock { $0.remove(pid) }
                let signal = status & 0x7F
                continuation.resume(
                    returning: signal == 0
                        ? Ending(status: (status >> 8) & 0xFF, signal: nil) : Ending(status: nil, signal: signal))
            }
        }
    }
}
