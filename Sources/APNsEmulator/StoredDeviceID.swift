import APNsCore
import APNsDeviceClient
import Foundation
import NIOCore

/// The device id `apns-emulator device` uses when none is given: made once, kept in
/// `~/.config/apns-emulator/device-id` (or `$XDG_CONFIG_HOME`), so a device is the same device
/// from run to run (its apps' settings and Notification Center are kept under it).
enum StoredDeviceID {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/apns-emulator/device-id"
    }

    static func load() -> String {
        let path = Self.path
        if let stored = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !stored.isEmpty
        {
            return stored
        }
        let made = "cli-" + UUID().uuidString.prefix(8).lowercased()
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (made + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            // A user with no writable home (a service account, a container's user): an id made
            // from the user and the machine is the same every run without being kept anywhere.
            let derived = Self.derived
            FileHandle.standardError.write(
                Data(
                    "apns-emulator: cannot keep a device id in \(path) (\(Self.cause(of: error))); using \(derived), the same for this user on this machine (--device-id to choose)\n"
                        .utf8))
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
