import APNsCore
import APNsDeviceClient
import Foundation
import NIOCore

/// Connecting `apns-emulator device`: a device id that stays the same from run to run, and
/// failures said in words (which file, which folder, which host and port).
extension DeviceCommand {
    func connect() async throws -> DeviceClient {
        guard FileManager.default.fileExists(atPath: self.caPath) else {
            throw DeviceCommandError(
                "no CA at \(self.caPath) (relative to \(FileManager.default.currentDirectoryPath)): pass --ca with the emulator's certs/ca.pem, or run from the folder serve started in"
            )
        }
        let deviceID = self.deviceID ?? StoredDeviceID.load()
        do {
            return try await DeviceClient.connect(host: self.host, port: self.devicePort, caPath: self.caPath, deviceID: deviceID, serverName: self.serverName)
        } catch where PushCommand.isRefused(error) {
            throw DeviceCommandError("could not connect to \(self.host):\(self.devicePort): connection refused (is `apns-emulator serve` running? its device port is 5223 unless --device-port says otherwise)")
        } catch {
            let port = self.devicePort
            let guess = Self.ports[port].map { " \(port) is the \($0) port by default: the device port is 5223." } ?? ""
            throw DeviceCommandError("could not speak TLS with the device listener at \(self.host):\(port): \(error).\(guess) Is \(self.caPath) the emulator's CA?")
        }
    }

    /// The name the device asks for (TLS SNI): behind HAProxy with `--shards`, the shard of its
    /// first token, or any shard for a device without one.
    var serverName: String {
        guard let shards = self.shards, shards > 0 else { return "localhost" }
        guard let token = self.tokens.first.flatMap({ DeviceToken(hex: $0) }) else { return "devices.localhost" }
        return "s\(Shard.index(of: token, count: shards)).devices.localhost"
    }

    /// The emulator's other default ports, to say which one a device probably hit.
    static let ports: [Int: String] = [2197: "HTTP/2 provider API", 8197: "admin API (plain HTTP)", 2195: "binary gateway", 2196: "feedback service"]
}

/// The device id `apns-emulator device` uses when none is given: made once, kept in
/// `~/.config/apns-emulator/device-id` (or `$XDG_CONFIG_HOME`), so a device is the same device
/// from run to run (its apps' settings and Notification Center are kept under it).
enum StoredDeviceID {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/apns-emulator/device-id"
    }

    static func load() -> String {
        let path = Self.path
        if let stored = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !stored.isEmpty {
            return stored
        }
        let made = "cli-" + UUID().uuidString.prefix(8).lowercased()
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (made + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            // A user with no writable home (a service account, a container's user): an id made
            // from the user and the machine is the same every run without being kept anywhere.
            let derived = Self.derived
            FileHandle.standardError.write(Data("apns-emulator: cannot keep a device id in \(path) (\(Self.cause(of: error))); using \(derived), the same for this user on this machine (--device-id to choose)\n".utf8))
            return derived
        }
        return made
    }

    /// `cli-<user id>-<host name>`: stable for one user on one machine.
    static var derived: String { "cli-\(getuid())-\(ProcessInfo.processInfo.hostName)" }

    private static func cause(of error: any Error) -> String {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
    }
}
