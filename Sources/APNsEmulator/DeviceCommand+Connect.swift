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
        let token = AdminTokenFile.token(given: self.adminToken.value, host: self.host, port: self.devicePort, door: "device")
        do {
            return try await DeviceClient.connect(
                host: self.host, port: self.devicePort, caPath: self.caPath, deviceID: deviceID, serverName: self.serverName,
                adminToken: token)
        } catch let error as DeviceClientError where error.serverCode == .unauthorized {
            throw DeviceCommandError(
                "the emulator at \(self.host):\(self.devicePort) asks devices for its admin token: pass --admin-token (the token serve printed at start; \(EnvironmentTwins.variable(for: "--admin-token")) works too). It said: \(error.message)"
            )
        } catch where PushCommand.isRefused(error) {
            throw DeviceCommandError(
                "could not connect to \(self.host):\(self.devicePort): connection refused (is `apns-emulator serve` running? its device port is 5223 unless --device-port says otherwise)"
            )
        } catch {
            let port = self.devicePort
            let guess = Self.ports[port].map { " \(port) is the \($0) port by default: the device port is 5223." } ?? ""
            throw DeviceCommandError(
                "could not speak TLS with the device listener at \(self.host):\(port): \(error).\(guess) Is \(self.caPath) the emulator's CA?"
            )
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
    static let ports: [Int: String] = [
        2197: "HTTP/2 provider API", 2297: "HTTP/2 provider API (production)", 8197: "admin API (plain HTTP)", 2195: "binary gateway", 2196: "feedback service",
    ]
}
