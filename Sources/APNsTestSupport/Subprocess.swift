import Foundation
import Synchronization

/// Runs other programs for end-to-end tests: third-party clients, and the built emulator itself.
public enum Subprocess {

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `command` (looked up on PATH) to completion.
    public static func run(_ command: String, _ arguments: [String]) async throws -> Output {
        let directory = try TemporaryDirectory(prefix: "apns-emulator-run")
        defer { try? directory.remove() }
        let pid = try Spawn.start([command] + arguments, stdout: directory.appending("out"), stderr: directory.appending("err"))
        let ending = await Spawn.wait(pid)
        return Output(
            status: ending.status ?? 128 + (ending.signal ?? 0),
            stdout: (try? String(contentsOfFile: directory.appending("out"), encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: directory.appending("err"), encoding: .utf8)) ?? ""
        )
    }

    /// The `apns-emulator` executable built next to the test bundle.
    public static var emulatorExecutable: String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On Linux the runner is .build/<config>/<package>PackageTests.xctest; on macOS it sits inside a bundle.
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("apns-emulator").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("apns-emulator").path
    }
}

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
    public static let everyListener = ["HTTP/2 provider API", "admin API", "device listener", "binary gateway", "feedback service", "channel management"]
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
            launcher + [executable, "serve", "--http2-port", "0", "--admin-port", "0", "--device-port", "0", "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--log-level", "warning"] + arguments,
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
            if waitpid(pid, &status, WNOHANG) == pid { throw SubprocessError.exited(text) }
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
            guard let on = line.range(of: " on "), let scheme = line.range(of: "://", range: on.upperBound..<line.endIndex) else { continue }
            let name = String(line[line.index(line.startIndex, offsetBy: "apns-emulator: ".count)..<on.lowerBound])
            let address = line[scheme.upperBound...].prefix { !$0.isWhitespace && $0 != "/" }
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else { continue }
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

public enum SubprocessError: Error, CustomStringConvertible {
    case missingExecutable(String)
    case exited(String)

    public var description: String {
        switch self {
        case .missingExecutable(let path): return "no executable at \(path): build the package first (swift build)"
        case .exited(let output): return "the emulator exited: \(output)"
        }
    }
}

/// A program started in the background whose output (stdout and stderr) goes to a file.
public final class BackgroundProcess: Sendable {
    public let pid: Int32
    public let output: String

    /// - Parameter input: what standard input reads (default /dev/null); a FIFO made with
    ///   `mkfifo` lets a test type commands while the program runs.
    public init(_ executable: String, _ arguments: [String], output: String, input: String = "/dev/null") throws {
        self.pid = try Spawn.start([executable] + arguments, stdin: input, stdout: output, stderr: output)
        self.output = output
    }

    /// The output's lines so far.
    public var lines: [String] {
        ((try? String(contentsOfFile: self.output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits (up to `timeout`) until the output has at least `count` lines.
    public func waitForLines(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [String] {
        let found = await eventually(timeout: timeout) { self.lines.count >= count }
        guard found else { throw SubprocessError.exited("only \(self.lines.count) lines: \(self.lines)") }
        return self.lines
    }

    /// Waits for the process to end; returns its exit status (128 + signal if killed).
    public func wait() async -> Int32 {
        let ending = await Spawn.wait(self.pid)
        return ending.status ?? 128 + (ending.signal ?? 0)
    }
}

extension EmulatorProcess {
    /// Runs `body` against an emulator process of its own (`serve` with `arguments`, on fresh data
    /// and certificate directories, every listener bound), then stops it (SIGTERM) however `body`
    /// ends. For behaviour in time (timeouts): such a process shares its event loops with no test.
    public static func scoped<T>(_ arguments: [String], _ body: (EmulatorProcess, _ caPath: String) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let emulator = try await EmulatorProcess.start(
            arguments: arguments + ["--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs")],
            output: directory.appending("emulator.log"), awaiting: EmulatorProcess.everyListener
        )
        do {
            let result = try await body(emulator, directory.appending("certs/ca.pem"))
            await emulator.kill(SIGTERM)
            return result
        } catch {
            await emulator.kill(SIGTERM)
            throw error
        }
    }
}
