import APNsCore
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 51 as a person on one machine meets it: `serve --host 0.0.0.0` makes an admin token,
/// prints it once and leaves it in the ports file and for the commands run beside it (`push`,
/// `export`, `doctor`), which then work with nothing more typed; the files it writes are private
/// to the user whatever the umask.
@Suite("serve beyond loopback: the made admin token, the commands beside it, private files")
struct AdminTokenCommandLineTests {
    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    /// `serve` on every interface under `umask`, with its files in `directory`.
    static func serve(umask: String, in directory: TemporaryDirectory, runtime: String, more: [String] = []) async throws -> EmulatorProcess {
        try await EmulatorProcess.start(
            arguments: more + [
                "--host", "0.0.0.0", "--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs"),
                "--keys", directory.appending("keys"), "--ports-file", directory.appending("ports.json"), "--log-level", "info",
            ],
            environment: ["XDG_RUNTIME_DIR": runtime], output: directory.appending("serve.log"),
            launcher: ["/bin/sh", "-c", "umask \(umask) && exec \"$0\" \"$@\""])
    }

    static func ports(_ directory: TemporaryDirectory) async throws -> [String: Any] {
        let path = directory.appending("ports.json")
        _ = await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: path) }
        let data = try #require(FileManager.default.contents(atPath: path), "no ports file")
        return try #require(JSONValue.foundationObject(Array(data)) as? [String: Any])
    }

    @Test("under umask 000 and 022: the data directory 700, the store, lock, keys and ports file 600, the CA's directory 755; a wider data directory is narrowed")
    func fileModes() async throws {
        for umask in ["000", "022"] {
            let directory = try TemporaryDirectory()
            let runtime = directory.appending("runtime")
            if umask == "022" {
                // One made before files were private.
                try FileManager.default.createDirectory(atPath: directory.appending("data"), withIntermediateDirectories: true)
                chmod(directory.appending("data"), 0o755)
            }
            let emulator = try await Self.serve(umask: umask, in: directory, runtime: runtime)
            let ports = try await Self.ports(directory)
            let adminPort = try #require(ports["admin"] as? Int)
            let expected = [
                ("data", 0o700), ("data/data.mdb", 0o600), ("data/lock.mdb", 0o600), ("data/emulator.lock", 0o600),
                ("ports.json", 0o600), ("certs", 0o755), ("certs/ca-key.pem", 0o600), ("certs/server-key.pem", 0o600),
                ("certs/ca.pem", 0o644), ("runtime/apns-emulator", 0o700), ("runtime/apns-emulator/admin-\(adminPort).token", 0o600),
            ]
            for (path, mode) in expected {
                #expect(Self.mode(directory.appending(path)) == mode, "umask \(umask): \(path) is \(String(Self.mode(directory.appending(path)), radix: 8))")
            }
            // The key store, written by keys create beside it, under the same umask.
            let key = try await Subprocess.run(
                "/bin/sh",
                [
                    "-c", "umask \(umask) && exec \"$0\" keys create --keys \"$1\" --out \"$2\" --team-id TEAM123456",
                    Subprocess.emulatorExecutable, directory.appending("keys"), directory.appending("creds"),
                ])
            #expect(key.status == 0, "\(key.stderr)")
            #expect(Self.mode(directory.appending("keys")) == 0o700 && Self.mode(directory.appending("creds")) == 0o700)
            for folder in ["keys", "creds"] {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appending(folder))) ?? []
                #expect(files.count == 1 && files.allSatisfy { Self.mode(directory.appending("\(folder)/\($0)")) == 0o600 }, "\(folder): \(files)")
            }
            await emulator.kill(SIGTERM)
            #expect(!FileManager.default.fileExists(atPath: directory.appending("runtime/apns-emulator/admin-\(adminPort).token")), "removed at exit")
            try directory.remove()
        }
    }

    @Test("the made token: printed once, in the ports file, asked for; push, export, doctor and device find it themselves")
    func madeToken() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let runtime = directory.appending("runtime")
        // Devices too must bring the token here, to show `device` finds it beside the emulator.
        let emulator = try await Self.serve(umask: "022", in: directory, runtime: runtime, more: ["--require-device-token"])
        defer { Task { await emulator.kill(SIGTERM) } }
        let ports = try await Self.ports(directory)
        let token = try #require(ports["adminToken"] as? String)
        let admin = try #require(ports["admin"] as? Int)
        let log = (try? String(contentsOfFile: directory.appending("serve.log"), encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: token).count == 2, "printed once:\n\(log)")
        #expect(log.contains("apns-emulator: admin token: \(token) (the admin API listens on 0.0.0.0"))

        #expect(try await AdminTestClient.request(host: "127.0.0.1", port: admin, path: "/api/v1/devices").status == 401)
        #expect(try await AdminTestClient.request(host: "127.0.0.1", port: admin, path: "/api/v1/devices", token: token).status == 200)

        let beside = ["XDG_RUNTIME_DIR=\(runtime)", Subprocess.emulatorExecutable]
        let push = try await Subprocess.run(
            "env",
            beside + [
                "push", "--http2-port", String(try #require(ports["http2"] as? Int)), "--ca", directory.appending("certs/ca.pem"),
                "--admin-port", String(admin), "--token", String(repeating: "5a", count: 32), "--topic", "com.example.lock",
                #"{"aps":{"alert":"hello"}}"#,
            ])
        #expect(push.stdout.hasPrefix("200 OK · phone: waiting for the device\n"), "\(push.stdout)\(push.stderr)")
        let export = try await Subprocess.run("env", beside + ["export", "--admin-port", String(admin)])
        #expect(export.status == 0 && export.stdout.contains("\"devices\""), "\(export.stderr)")
        let doctor = try await Subprocess.run("env", beside + ["doctor", "--admin-port", String(admin)])
        #expect(doctor.stdout.contains("admin API at 127.0.0.1:\(admin): an emulator answers with the admin token"), "\(doctor.stdout)")

        let devicePort = String(try #require(ports["device"] as? Int))
        let deviceArguments = [
            "device", "--topic", "com.example.lock", "--device-id", "cli-beside", "--device-port", devicePort, "--ca",
            directory.appending("certs/ca.pem"), "--count", "0",
        ]
        let device = try await Subprocess.run("env", beside + deviceArguments)
        // It registered and printed its token (a device welcomed with the admin token).
        #expect(device.status == 0 && device.stdout.split(separator: "\n").first?.count == 64, "\(device.stdout)\(device.stderr)")

        // Elsewhere (no token left for this user), export and device say what to pass.
        let stranger = try await Subprocess.run(
            "env", ["XDG_RUNTIME_DIR=\(directory.appending("nowhere"))", Subprocess.emulatorExecutable] + deviceArguments)
        #expect(stranger.status != 0 && stranger.stderr.contains("asks devices for its admin token: pass --admin-token"), "\(stranger.stderr)")
        let elsewhere = ["XDG_RUNTIME_DIR=\(directory.appending("nowhere"))", Subprocess.emulatorExecutable]
        let refused = try await Subprocess.run("env", elsewhere + ["export", "--admin-port", String(admin)])
        #expect(refused.status != 0 && refused.stderr.contains("asks for its admin token: pass --admin-token"), "\(refused.stderr)")
        let given = try await Subprocess.run("env", elsewhere + ["export", "--admin-port", String(admin), "--admin-token", token])
        #expect(given.status == 0, "\(given.stderr)")
        let twin = try await Subprocess.run(
            "env", ["APNS_EMULATOR_ADMIN_TOKEN=\(token)"] + elsewhere + ["export", "--admin-port", String(admin)])
        #expect(twin.status == 0, "\(twin.stderr)")
    }
}
