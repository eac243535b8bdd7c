import APNsAdminClient
import APNsDevice
import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs an app's service extension where it lives: a command on this machine (`/bin/sh -c`, the
/// content on standard input, the reply on standard output, in a process group of its own so that a
/// timeout stops everything it started) or a URL (the content posted, the answer's body the reply).
/// A run ends once: with the reply's bytes, or why there is none. ``Phone`` owns the clock.
struct ServiceExtensionRunner: Sendable {
    /// The most bytes of a reply read; more is not content.
    static let replyLimit = 4 << 20

    /// How to stop a run that is no longer wanted (its time expired, the phone was reset).
    struct Stop: Sendable {
        let stop: @Sendable () -> Void
    }

    /// Starts `serviceExtension` on `content`; `done` gets the reply or the failure, once.
    func run(
        _ serviceExtension: ServiceExtension, content: ExtensionContent, uniqueID: String, device: ExtensionDevice?,
        on eventLoop: any EventLoop, done: @escaping @Sendable (Result<[UInt8], ExtensionReplyError>) -> Void
    ) -> Stop {
        switch serviceExtension.kind {
        case .command(let command):
            return Self.runCommand(command, input: content.json + [0x0A], done: done)
        case .url(let url):
            return Self.post(url, body: content.json, timeoutMillis: serviceExtension.timeoutMillis, on: eventLoop, done: done)
        case .device:
            // The device answers with `extended` (``PhoneNotifications/finishExtension(_:_:from:)``).
            guard let device else {
                done(
                    .failure(
                        ExtensionReplyError(
                            "no device of protocol version 4 or later took the notification to answer as the extension")))
                return Stop {}
            }
            device.ask(uniqueID, content.json)
            return Stop {}
        }
    }

    /// The command, in a process group of its own, so that stopping it stops its children.
    private static func runCommand(
        _ command: String, input: [UInt8], done: @escaping @Sendable (Result<[UInt8], ExtensionReplyError>) -> Void
    ) -> Stop {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        do {
            try process.run()
        } catch {
            done(.failure(ExtensionReplyError("the command could not be started: \(error)")))
            return Stop {}
        }
        let pid = process.processIdentifier
        let box = ExtensionProcess(process, pipes: [stdin, stdout, stderr])
        Thread.detachNewThread { box.write(input, to: stdin.fileHandleForWriting) }
        Thread.detachNewThread {
            let errors = Mutex<[UInt8]>([])
            let errorReader = Thread { errors.withLock { $0 = box.read(stderr.fileHandleForReading, limit: 300) } }
            errorReader.start()
            let output = box.read(stdout.fileHandleForReading, limit: Self.replyLimit + 1)
            done(box.outcome(output: output, errors: { errors.withLock { $0 } }))
        }
        return Stop {
            // Foundation starts the command in a process group of its own: the group goes.
            if kill(-pid, SIGKILL) != 0 { kill(pid, SIGKILL) }
        }
    }

    /// Posts the content to `url`; a 2xx answer's body is the reply.
    private static func post(
        _ url: String, body: [UInt8], timeoutMillis: Int64, on eventLoop: any EventLoop,
        done: @escaping @Sendable (Result<[UInt8], ExtensionReplyError>) -> Void
    ) -> Stop {
        guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else {
            done(.failure(ExtensionReplyError("\(url) is not a URL with a host")))
            return Stop {}
        }
        let address = "\(host.contains(":") ? "[\(host)]" : host):\(parsed.port ?? 80)"
        let path = (parsed.path.isEmpty ? "/" : parsed.path) + (parsed.query.map { "?\($0)" } ?? "")
        let client = AdminHTTPClient(group: eventLoop, connectTimeout: .seconds(5))
        // The phone's clock ends the run; this only bounds a connection nobody answers on.
        let answer = client.request(
            address, method: "POST", path: path, body: body, headers: [("content-type", "application/json")],
            timeout: .milliseconds(max(timeoutMillis, 1000) + 60_000))
        answer.whenComplete { result in
            switch result {
            case .success(let answer) where (200..<300).contains(answer.status):
                done(.success(answer.body))
            case .success(let answer):
                let said = String(decoding: answer.body.prefix(200), as: UTF8.self)
                done(.failure(ExtensionReplyError("\(url) answered \(answer.status)\(said.isEmpty ? "" : ": \(said)")")))
            case .failure(let error):
                done(.failure(ExtensionReplyError("\(url) could not be reached: \(error)")))
            }
        }
        return Stop {}
    }
}
