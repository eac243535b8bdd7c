import APNsAdminClient
import APNsServer
import ArgumentParser
import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// `doctor`'s checks of who may reach the admin API: whether it will ask for a token, whether a
/// running emulator admits this user's, and whether the data directory is private.
extension DoctorCommand {
    func checkAdminAccess() -> Finding {
        let address = "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.adminPort)"
        let token = AdminTokenFile.token(given: self.adminToken.value, host: self.host, port: self.adminPort)
        let client = AdminHTTPClient(connectTimeout: .seconds(2), token: token)
        if let answer = try? client.request(address, path: "/api/v1/clock", timeout: .seconds(5)).wait() {
            switch answer.status {
            case 200:
                let how = token == nil ? "without a token" : "with the admin token (\(self.adminToken.value == nil ? "the one serve left for port \(self.adminPort)" : "--admin-token"))"
                return Finding(level: .ok, text: "admin API at \(address): an emulator answers \(how)")
            case 401:
                return Finding(
                    level: .problem,
                    text: "admin API at \(address): asks for an admin token \(token == nil ? "this command does not have" : "other than the one given"): pass --admin-token (the token serve printed at start)")
            default:
                return Finding(level: .problem, text: "admin API at \(address): answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            }
        }
        if self.adminToken.value == nil && !AdminAccess.isLoopback(self.host) {
            return Finding(
                level: .note,
                text: "admin API on \(self.host): reachable from other machines, so serve makes an admin token at start and prints it (--admin-token chooses one)")
        }
        return Finding(
            level: .ok,
            text: "admin API on \(self.host):\(self.adminPort): \(self.adminToken.value == nil ? "no token (loopback only); " : "asks for the --admin-token given; ")other sites' pages and rebinding host names are refused")
    }

    /// Whether the data directory is private (serve narrows one it owns).
    func checkDataDirectoryMode() -> Finding? {
        var info = stat()
        guard stat(self.dataDirectory, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        if info.st_uid == geteuid() {
            return Finding(level: .note, text: "data directory \(self.dataDirectory): mode \(mode), readable by other users; serve narrows it to 700")
        }
        return Finding(
            level: .problem,
            text: "data directory \(self.dataDirectory): mode \(mode) and another user's: other users could read every payload; use a directory of your own (--data-dir)")
    }
}
