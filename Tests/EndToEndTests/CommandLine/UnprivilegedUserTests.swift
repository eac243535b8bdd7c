import APNsCore
import APNsTestSupport
import APNsWire
import Foundation
import NIOCore
import Testing

/// Nothing assumes root (issue 37): the emulator built beside the tests runs as an ordinary user
/// (`nobody`, through `setpriv`, when the suite runs as root; as the suite's own user otherwise)
/// and every listener answers it. Until this test, one socket option only root may set (SO_DEBUG,
/// spelled `.socketOption(.tcp_nodelay)`) reset every connection an ordinary user's emulator
/// accepted, and `push` and `device` could not connect at all.
@Suite("As an ordinary user")
struct UnprivilegedUserTests {
    static let topic = "com.example.unprivileged"

    /// A directory the ordinary user owns, holding a copy of the executable (the build folder may
    /// sit where that user cannot reach), its home, the data and the certificates.
    struct Home {
        let directory: TemporaryDirectory
        let executable: String
        /// What starts a program as the ordinary user, with its HOME.
        let launcher: [String]

        init() async throws {
            self.directory = try TemporaryDirectory(prefix: "apns-emulator-user")
            self.executable = self.directory.appending("apns-emulator")
            // Copied by cp, not in this process: a program another test starts meanwhile would
            // inherit a descriptor open for writing, and exec would fail with ETXTBSY.
            let copied = try await Subprocess.run("cp", [Subprocess.emulatorExecutable, self.executable])
            guard copied.status == 0 else { throw SubprocessError.exited("cp: \(copied.stderr)") }
            let home = self.directory.appending("home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            if geteuid() == 0 {
                // nobody:nogroup on Debian; the directory becomes theirs.
                for path in [self.directory.path, self.executable, home] { chown(path, 65534, 65534) }
                self.launcher = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "env", "HOME=\(home)"]
            } else {
                self.launcher = ["env", "HOME=\(home)"]
            }
        }

        /// Runs the executable with `arguments` as the ordinary user, to completion.
        func run(_ arguments: [String]) async throws -> Subprocess.Output {
            try await Subprocess.run(self.launcher[0], Array(self.launcher.dropFirst()) + [self.executable] + arguments)
        }
    }

    @Test("every listener answers an emulator run as an ordinary user; push, device and doctor work as that user")
    func everyListener() async throws {
        let home = try await Home()
        defer { try? home.directory.remove() }
        let ca = home.directory.appending("certs/ca.pem")
        let emulator = try await EmulatorProcess.start(
            arguments: [
                "--data-dir", home.directory.appending("data"), "--certs-dir", home.directory.appending("certs"), "--keys",
                home.directory.appending("keys"),
            ],
            // Started with an ordinary user's soft limit of 1024 open files, which serve raises.
            output: home.directory.appending("serve.log"), executable: home.executable,
            launcher: ["prlimit", "--nofile=1024:"] + home.launcher,
            awaiting: EmulatorProcess.everyListener
        )
        do {
            try await self.exercise(emulator, home: home, ca: ca)
        } catch {
            await emulator.kill(SIGTERM)
            throw error
        }
        let ending = await emulator.kill(SIGTERM)
        #expect(
            ending.status == 0,
            "serve as an ordinary user ended \(ending): \(String(describing: try? String(contentsOfFile: home.directory.appending("serve.log"), encoding: .utf8)))"
        )
    }

    private func exercise(_ emulator: EmulatorProcess, home: Home, ca: String) async throws {
        // It really is an ordinary user's process.
        let status = try String(contentsOfFile: "/proc/\(emulator.pid)/status", encoding: .utf8)
        let uid = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(whereSeparator: \.isWhitespace).dropFirst()
            .first
        #expect(uid.flatMap { Int($0) } != 0, "serve runs as uid \(uid ?? "?")")
        // Every connection is a descriptor: serve raised its soft limit to the hard one.
        let limits = try String(contentsOfFile: "/proc/\(emulator.pid)/limits", encoding: .utf8)
        let files = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }?.split(whereSeparator: \.isWhitespace)
            .dropFirst(3).prefix(2).map(String.init)
        #expect(
            files?.count == 2 && files?.first == files?.last && files?.first != "1024", "serve's open-file limits: \(files ?? [])"
        )
        let admin = { (path: String) in try await AdminTestClient.request(host: "127.0.0.1", port: emulator.adminPort, path: path)
        }
        // The admin API and the web inbox page.
        #expect(try await admin("/healthz").status == 200)
        let page = try await admin("/")
        #expect(page.status == 200 && page.text.contains("<html"), "the web inbox page: \(page.status)")

        // A device, as the ordinary user, waits for one notification and prints it.
        let deviceOutput = home.directory.appending("device.out")
        let device = try BackgroundProcess(
            home.launcher[0],
            Array(home.launcher.dropFirst()) + [
                home.executable, "device", "--topic", Self.topic, "--device-port", String(emulator.devicePort), "--ca", ca,
                "--count", "2",
            ],
            output: deviceOutput
        )
        let token = try #require(
            try await device.waitForLines(1).first?.trimmingCharacters(in: .whitespaces), "the device printed no token")
        #expect(DeviceToken(hex: token) != nil, "the device's first line is its token: \(token)")

        // An HTTP/2 push over TLS from this process, and one from the push command as the user.
        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.http2Port, caPath: ca)
        let pushed = try await provider.push(
            token: token, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"from a test"}}"#)
        #expect(pushed.status == 200)
        try await provider.close()
        let command = try await home.run([
            "push", "--http2-port", String(emulator.http2Port), "--ca", ca, "--token", token, "--topic", Self.topic,
            #"{"aps":{"alert":"from push"}}"#,
        ])
        #expect(
            command.status == 0 && command.stdout.contains("200"), "push as an ordinary user: \(command.stdout)\(command.stderr)")
        #expect(await device.wait() == 0, "device as an ordinary user: \(device.lines)")
        let received = device.lines.dropFirst().joined(separator: "\n")
        #expect(received.contains("from a test") && received.contains("from push"), "the device printed: \(received)")

        try await self.otherDoors(emulator, home: home, ca: ca, token: token)
    }

    /// The binary gateway, the feedback service, channel management, a device without a home
    /// and doctor, as the ordinary user.
    private func otherDoors(_ emulator: EmulatorProcess, home: Home, ca: String, token: String) async throws {
        // The binary gateway: a bad command gets status 128 (protocol error) before the close.
        var stream = BinaryStream()
        stream.raw([9, 0, 0])
        let answer = try await RawTLSClient.exchange(
            host: "127.0.0.1", port: emulator.gatewayPort, caPath: ca, identity: nil, sending: stream.bytes)
        var buffer = ByteBuffer(bytes: answer)
        #expect(BinaryErrorResponse.read(from: &buffer)?.status == .protocolError, "binary gateway answered \(answer)")

        // The feedback service: a token unregistered is reported.
        let gone = try await AdminTestClient.request(
            host: "127.0.0.1", port: emulator.adminPort, method: "POST", path: "/api/v1/devices/\(token)/unregister")
        #expect(gone.status == 200)
        var tuples = ByteBuffer(
            bytes: try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.feedbackPort, caPath: ca, identity: nil, sending: []))
        #expect(FeedbackTuple.read(from: &tuples).flatMap { DeviceToken(bytes: $0.token)?.hex } == token)

        // Channel management on its own port.
        let channels = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.channelsPort, caPath: ca)
        let created = try await channels.send(
            path: "/1/apps/\(Self.topic)/channels",
            body: Array(#"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#.utf8))
        #expect(created.status == 201 && created.header("apns-channel-id") != nil, "channel management: \(created.status)")
        try await channels.close()

        // A user with no writable home (nobody's is /nonexistent): the device still connects, under
        // an id made from the user and the machine, and says why.
        let homeless = home.launcher.map { $0.hasPrefix("HOME=") ? "HOME=/nonexistent" : $0 }
        let device0 = try await Subprocess.run(
            homeless[0],
            Array(homeless.dropFirst()) + [
                home.executable, "device", "--topic", Self.topic, "--device-port", String(emulator.devicePort), "--ca", ca,
                "--count", "0",
            ])
        #expect(
            device0.status == 0 && device0.stderr.contains("cannot keep a device id in /nonexistent"),
            "device without a home: \(device0.stderr)")
        #expect(
            DeviceToken(hex: device0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil,
            "device without a home printed \(device0.stdout)")

        // doctor as the user, against the running emulator's directories: the CA is found.
        let doctor = try await home.run([
            "doctor", "--data-dir", home.directory.appending("doctor-data"), "--certs-dir", home.directory.appending("certs"),
        ])
        #expect(
            !doctor.stdout.isEmpty && !doctor.stdout.contains("Permission denied"),
            "doctor as an ordinary user: \(doctor.stdout)\(doctor.stderr)")
    }
}
