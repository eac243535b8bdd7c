import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `serve --exit-on-stdin-close`: a thread reads standard input to its end (what it reads is
/// dropped) and then shuts the emulator down. A fixture that starts the emulator holds the
/// other end of the pipe: when the test runner ends, killed or not, the kernel closes it.
enum StandardInputWatch {
    static func start(_ shutdown: @escaping @Sendable () async -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            say("apns-emulator: standard input closed: shutting down (--exit-on-stdin-close)")
            Task { await shutdown() }
        }
        thread.name = "apns-emulator.stdin"
        thread.start()
    }
}
