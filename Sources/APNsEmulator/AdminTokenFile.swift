import APNsCore
import APNsServer
import ArgumentParser
import Foundation

/// Where `serve` leaves its admin token for the commands run beside it on the same machine
/// (`push`, `export`, `doctor` by the admin port, `device` by the device port): one file per port in a directory private to the
/// user (`$XDG_RUNTIME_DIR/apns-emulator`, else `~/.local/state/apns-emulator`), removed at exit.
/// A command reads it only for an emulator on this machine, so a token never travels to
/// another host it was not meant for.
enum AdminTokenFile {
    /// The directory, or nil when this user has neither a runtime directory nor a home.
    static var directory: String? {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/apns-emulator" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/apns-emulator" }
        guard let home = environment["HOME"], !home.isEmpty, home != "/" else { return nil }
        return home + "/.local/state/apns-emulator"
    }

    /// `door`: `admin` or `device`, the port's kind.
    static func path(port: Int, door: String = "admin") -> String? { Self.directory.map { "\($0)/\(door)-\(port).token" } }

    /// Leaves `token` for the admin and device ports (or removes stale files when there is none);
    /// a failure is a warning, never a reason not to start.
    static func leave(_ token: String?, admin: Int, device: Int) -> String? {
        guard let directory = Self.directory else { return nil }
        let paths = [Self.path(port: admin), Self.path(port: device, door: "device")].compactMap { $0 }
        guard let token else {
            for path in paths { try? FileManager.default.removeItem(atPath: path) }
            return nil
        }
        do {
            if let warning = try PrivateFiles.directory(directory) { return warning }
            for path in paths { try PrivateFiles.write(Array((token + "\n").utf8), to: path) }
            return nil
        } catch {
            return "could not leave the admin token for other commands in \(directory): \(error)"
        }
    }

    static func remove(admin: Int, device: Int) {
        for path in [Self.path(port: admin), Self.path(port: device, door: "device")].compactMap({ $0 }) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The token a command uses for the admin API at `host`:`port`: the one it was given, else
    /// the one an emulator on this machine left for that port.
    static func token(given: String?, host: String, port: Int, door: String = "admin") -> String? {
        if let given, !given.isEmpty { return given }
        guard AdminAccess.isLoopback(host) || host == "0.0.0.0" || host == "::", let path = Self.path(port: port, door: door),
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }
}
