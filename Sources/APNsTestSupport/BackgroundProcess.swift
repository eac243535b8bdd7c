import Foundation
import Synchronization

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
