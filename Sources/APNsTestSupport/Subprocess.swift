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
        while directory.path != "/"
            && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("apns-emulator").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("apns-emulator").path
    }
}

extension EmulatorProcess {
    /// Runs `body` against an emulator process of its own (`serve` with `arguments`, on fresh data
    /// and certificate directories, every listener bound), then stops it (SIGTERM) however `body`
    /// ends. For behaviour in time (timeouts): such a process shares its event loops with no test.
    public static func scoped<T>(
        _ arguments: [String], _ body: (EmulatorProcess, _ caPath: String) async throws -> T
    ) async throws -> T {
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
