import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// `serve --forward-to-simulator`: each accepted push handed to `xcrun simctl push`, run here
/// with a stand-in xcrun that records what it was given.
@Suite("serve --forward-to-simulator")
struct SimulatorBridgeTests {
    static let topic = PushCommandTests.topic
    static let token = PushCommandTests.token

    /// A stand-in for `xcrun simctl push` in a folder of its own, for PATH: it records its
    /// arguments and the file it was given; a topic "fail.me" fails as simctl would.
    private static func standInXcrun(in directory: TemporaryDirectory) async throws -> String {
        let bin = directory.appending("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            echo "$@" >> "\(directory.path)/calls"
            cat "$5" >> "\(directory.path)/files"
            if [ "$4" = "fail.me" ]; then echo "Invalid device: booted" >&2; exit 148; fi
            echo "Notification sent to '$4'"
            """
        // Copied into place by another process: a descriptor this process held on the file
        // (inherited by a child another test forks meanwhile) would make its exec fail with
        // ETXTBSY, which under load it once did.
        try script.write(toFile: directory.appending("xcrun.sh"), atomically: true, encoding: .utf8)
        let copied = try await Subprocess.run("cp", [directory.appending("xcrun.sh"), bin + "/xcrun"])
        try #require(copied.status == 0, "cp: \(copied.stderr)")
        chmod(bin + "/xcrun", 0o755)
        return bin
    }

    @Test(
        "--forward-to-simulator hands each accepted push to `xcrun simctl push <device> <bundle> <file>` (a stand-in xcrun here); the outcome is in the journal"
    )
    func simulatorBridge() async throws {
        let directory = try TemporaryDirectory()
        let bin = try await Self.standInXcrun(in: directory)
        let emulator = try await EmulatorProcess.start(
            arguments: [
                "--forward-to-simulator", "booted", "--data-dir", directory.appending("data"), "--certs-dir",
                directory.appending("certs"),
            ],
            environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")],
            output: directory.appending("serve.log")
        )
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem"))
        let sent = try await client.push(
            token: Self.token, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"To the simulator"},"k":7}"#)
        let uniqueID = try #require(sent.header("apns-unique-id"))
        let failing = try await client.push(
            token: String(repeating: "6f", count: 32), headers: [("apns-topic", "fail.me")], json: #"{"aps":{"alert":"x"}}"#)
        let failingID = try #require(failing.header("apns-unique-id"))
        // Rejected pushes are not forwarded.
        #expect(
            try await client.push(token: Self.token, headers: [("apns-topic", Self.topic), ("apns-priority", "7")]).status == 400)
        try await client.close()

        func item(_ id: String) async throws -> [String: Any]? {
            let answer = try await AdminTestClient.request(
                host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/notifications/\(id)")
            return try answer.json() as? [String: Any]
        }
        var forwarded: [String: Any]?
        var failed: [String: Any]?
        _ = await eventually(timeout: .seconds(60)) {  // a process spawned per push: slow when the machine is busy
            forwarded = (try? await item(uniqueID))?["simulator"] as? [String: Any]
            failed = (try? await item(failingID))?["simulator"] as? [String: Any]
            return forwarded != nil && failed != nil
        }
        #expect(
            forwarded?["status"] as? String == "forwarded" && forwarded?["device"] as? String == "booted"
                && forwarded?["exitCode"] as? Int == 0, "\(forwarded ?? [:])")
        #expect(
            failed?["status"] as? String == "failed" && failed?["exitCode"] as? Int == 148
                && (failed?["message"] as? String)?.contains("Invalid device") == true, "\(failed ?? [:])")
        let calls = try String(contentsOfFile: directory.appending("calls"), encoding: .utf8).split(separator: "\n")
        #expect(calls.count == 2)
        #expect(
            calls.first?.hasPrefix("simctl push booted \(Self.topic) ") == true && calls.first?.hasSuffix(".apns") == true,
            "\(calls)")
        let files = try String(contentsOfFile: directory.appending("files"), encoding: .utf8)
        #expect(files.contains(#""Simulator Target Bundle" : "\#(Self.topic)""#) && files.contains(#""k" : 7"#), "\(files)")
        _ = await emulator.kill(SIGTERM)
        try directory.remove()
    }
}
