import Foundation
import Synchronization

/// The built `apns-emulator serve` running as its own process, for tests that must kill it.
public final class EmulatorProcess: Sendable {
    public let pid: Int32
    /// Each listener's port by the name serve prints ("HTTP/2 provider API", "device listener", ...).
    public let ports: [String: Int]
    public var http2Port: Int { self.ports["HTTP/2 provider API"] ?? 0 }
    public var adminPort: Int { self.ports["admin API"] ?? 0 }
    public var devicePort: Int { self.ports["device listener"] ?? 0 }
    public var gatewayPort: Int { self.ports["binary gateway"] ?? 0 }
    public var feedbackPort: Int { self.ports["feedback service"] ?? 0 }
    public var channelsPort: Int { self.ports["channel management"] ?? 0 }
    /// Every listener serve starts by default, for `start(awaiting:)`.
    public static let everyListener = [
        "HTTP/2 provider API", "admin API", "device listener", "binary gateway", "feedback service", "channel management",
    ]
    private let ending = Mutex<Spawn.Ending?>(nil)

    /// Starts `apns-emulator serve` on free ports with `arguments` added (and `environment` added to
    /// this process's), and waits (up to 30 s) until it prints where the `awaiting` listeners are
    /// (each reports once bound, in no fixed order). `executable` defaults to the one built beside
    /// the tests; `launcher` goes before it (for example `setpriv` to another user).
    public static func start(
        arguments: [String], environment: [String: String] = [:], output: String,
        executable: String = Subprocess.emulatorExecutable, launcher: [String] = [],
        awaiting: [String] = ["HTTP/2 provider API", "admin API"]
    ) async throws -> EmulatorProcess {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw SubprocessError.missingExecutable(executable)
        }
        let pid = try Spawn.start(
            launcher + [
                executable, "serve", "--http2-port", "0", "--production-http2-port", "0", "--admin-port", "0", "--device-port",
                "0", "--gateway-port", "0",
                "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--log-level", "warning",
            ] + arguments,
            environment: environment, stdout: output, stderr: output
        )
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let ports = Self.ports(in: text)
            if awaiting.allSatisfy({ ports[$0] != nil }) {
                return EmulatorProcess(pid: pid, ports: ports)
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                _ = Spawn.running.withLock { $0.remove(pid) }
                throw SubprocessError.exited(text)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Foundation.kill(pid, SIGKILL)
        _ = await Spawn.wait(pid)
        throw SubprocessError.exited("no listener lines within 30 s")
    }

    private init(pid: Int32, ports: [String: Int]) {
        self.pid = pid
        self.ports = ports
    }

    /// The listeners in serve's lines `apns-emulator: <name> on <scheme>://<host>:<port>`.
    static func ports(in text: String) -> [String: Int] {
        var ports: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("apns-emulator: ") {
            guard let on = line.range(of: " on "), let scheme = line.range(of: "://", range: on.upperBound..<line.endIndex) else {
                continue
            }
            let name = String(line[line.index(line.startIndex, offsetBy: "apns-emulator: ".count)..<on.lowerBound])
            let address = line[scheme.upperBound...].prefix { !$0.isWhitespace && $0 != "/" }
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
                continue
            }
            ports[name] = port
        }
        return ports
    }

    /// Sends `signal` to the process and waits for it to end; returns how it ended. Once it has
    /// ended, returns that without signalling: its pid may belong to another process by then.
    @discardableResult
    public func kill(_ signal: Int32) async -> Spawn.Ending {
        if let ending = self.ending.withLock({ $0 }) { return ending }
        Foundation.kill(self.pid, signal)
        let ending = await Spawn.wait(self.pid)
        self.ending.withLock { $0 = $0 ?? ending }
        return ending
    }
}
