import APNsCore
import APNsServer
import Foundation

/// Where `serve` leaves its admin token for the commands run beside it on the same machine
/// (`push`, `export`, `doctor`, `device`): one file per admin port in a directory private to the
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

    static func path(port: Int) -> String? { Self.directory.map { "\($0)/admin-\(port).token" } }

    /// Leaves `token` for port `port` (or removes a stale file when there is none); a failure is
    /// a warning, never a reason not to start.
    static func leave(_ token: String?, port: Int) -> String? {
        guard let path = Self.path(port: port), let directory = Self.directory else { return nil }
        guard let token else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        do {
            if let warning = try PrivateFiles.directory(directory) { return warning }
            try PrivateFiles.write(Array((token + "\n").utf8), to: path)
            return nil
        } catch {
            return "could not leave the admin token for other commands in \(path): \(error)"
        }
    }

    static func remove(port: Int) {
        if let path = Self.path(port: port) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The token a command uses for the admin API at `host`:`port`: the one it was given, else
    /// the one an emulator on this machine left for that port.
    static func token(given: String?, host: String, port: Int) -> String? {
        if let given, !given.isEmpty { return given }
        guard AdminAccess.isLoopback(host) || host == "0.0.0.0" || host == "::", let path = Self.path(port: port),
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }
}
