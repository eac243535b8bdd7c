import Foundation
import Synchronization

/// Runs other programs for end-to-end tests: third-party clients, and the built emulator itself.
public enum Subprocess {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `command` (looked up on PATH) to completion off the cooperative pool.
    public static func run(_ command: String, _ arguments: [String]) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = [command] + arguments
                    let out = Pipe()
                    let err = Pipe()
                    process.standardOutput = out
                    process.standardError = err
                    try process.run()
                    let stdout = out.fileHandleForReading.readDataToEndOfFile()
                    let stderr = err.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(
                        returning: Output(
                            status: process.terminationStatus,
                            stdout: String(decoding: stdout, as: UTF8.self),
                            stderr: String(decoding: stderr, as: UTF8.self)
                        )
                    )
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
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
    private let process: Mutex<Process>
    public let http2Port: Int
    public let adminPort: Int
    public let pid: Int32

    /// Starts `apns-emulator serve` on free ports with `arguments` added (and `environment` added to
    /// this process's), and waits (up to 30 s) until it prints where its listeners are.
    public static func start(arguments: [String], environment: [String: String] = [:], output: String) async throws -> EmulatorProcess {
        let executable = Subprocess.emulatorExecutable
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw SubprocessError.missingExecutable(executable)
        }
        guard FileManager.default.createFile(atPath: output, contents: nil) else {
            throw SubprocessError.exited("cannot create \(output)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--http2-port", "0", "--admin-port", "0", "--device-port", "0", "--log-level", "warning"] + arguments
        process.standardOutput = log
        process.standardError = log
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try process.run()

        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let http2 = Self.port(after: "HTTP/2 provider API on https://127.0.0.1:", in: text),
                let admin = Self.port(after: "admin API on http://127.0.0.1:", in: text)
            {
                return EmulatorProcess(process: process, pid: process.processIdentifier, http2Port: http2, adminPort: admin)
            }
            guard process.isRunning else { throw SubprocessError.exited(text) }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw SubprocessError.exited("no listener lines within 30 s")
    }

    private init(process: sending Process, pid: Int32, http2Port: Int, adminPort: Int) {
        self.process = Mutex(process)
        self.pid = pid
        self.http2Port = http2Port
        self.adminPort = adminPort
    }

    private static func port(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends `signal` to the process and waits for it to exit; returns how it ended.
    @discardableResult
    public func kill(_ signal: Int32) async -> (reason: Process.TerminationReason, status: Int32) {
        Foundation.kill(self.pid, signal)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let ended = self.process.withLock { process in
                    process.waitUntilExit()
                    return (process.terminationReason, process.terminationStatus)
                }
                continuation.resume(returning: ended)
            }
        }
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
    private let process: Mutex<Process>
    public let output: String

    public init(_ executable: String, _ arguments: [String], output: String) throws {
        guard FileManager.default.createFile(atPath: output, contents: nil) else {
            throw SubprocessError.exited("cannot create \(output)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = Mutex(process)
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

    /// Waits for the process to exit; returns its status.
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let status = self.process.withLock { process in
                    process.waitUntilExit()
                    return process.terminationStatus
                }
                continuation.resume(returning: status)
            }
        }
    }
}
