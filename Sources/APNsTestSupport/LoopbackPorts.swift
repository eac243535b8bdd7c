import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for processes a test starts itself (shards, HAProxy), which must be told
/// their ports before they bind them.
public enum LoopbackPorts {
    /// Every port handed out in this process: the check below closes its sockets before the port
    /// is bound, so two tests running side by side (or three calls in one expression) could
    /// otherwise be given the same free port.
    private static let handedOut = Mutex<Set<Int>>([])

    /// The first of `count` consecutive ports free now and never handed out before in this
    /// process, below Linux's ephemeral range (32768 up): emulators the suite starts on port 0
    /// never land there between this check and the bind.
    public static func free(_ count: Int = 1) throws -> Int {
        for _ in 0..<100 {
            let base = Int.random(in: 20_000..<(32_000 - count))
            let ports = Set(base..<(base + count))
            let reserved = Self.handedOut.withLock { handedOut in
                guard handedOut.isDisjoint(with: ports) else { return false }
                handedOut.formUnion(ports)
                return true
            }
            guard reserved else { continue }
            var descriptors: [Int32] = []
            defer { descriptors.forEach { close($0) } }
            let free = (base..<(base + count)).allSatisfy { port in
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                descriptors.append(descriptor)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                address.sin_port = UInt16(port).bigEndian
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                } == 0
            }
            if free { return base }
        }
        throw SubprocessError.exited("no \(count) free ports between 20000 and 32000")
    }
}
