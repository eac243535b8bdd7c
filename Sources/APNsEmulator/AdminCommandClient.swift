import APNsAdminClient
import APNsCore
import ArgumentParser
import Foundation

/// A running emulator's admin API for the commands that read it (`report`, `export`): its
/// address, the admin token (given, or the one an emulator on this machine left), and each
/// answer as JSON, with the refusals said in the command's words.
struct AdminCommandClient {
    let command: String
    let host: String
    let port: Int
    let token: String?

    init(command: String = "report", host: String, port: Int, token: String?) {
        self.command = command
        self.host = host
        self.port = port
        self.token = AdminTokenFile.token(given: token, host: host, port: port)
    }

    var address: String { "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.port)" }

    /// The ids of every provider the emulator has seen.
    func providerIDs() async throws -> [String] {
        guard case .array(let items)? = try await self.json("GET", "/api/v1/providers")["items"] else { return [] }
        return items.compactMap { $0["id"]?.string }
    }

    /// One provider's report.
    func report(of id: String) async throws -> JSONValue {
        let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
        return try await self.json("GET", "/api/v1/providers/\(path)/report")
    }

    /// The JSON of a 200 answer; anything else is a ValidationError saying what happened.
    func json(_ method: String, _ path: String, timeout: Double = 30) async throws -> JSONValue {
        let answer: AdminHTTPClient.Answer
        do {
            answer = try await AdminHTTPClient(connectTimeout: .seconds(5), token: self.token).request(
                self.address, method: method, path: path, timeout: .milliseconds(Int64(timeout * 1000))
            ).get()
        } catch {
            throw ValidationError("\(self.command): no emulator's admin API answered at \(self.address): \(error)")
        }
        if answer.status == 401 {
            throw ValidationError(
                "\(self.command): \(self.address) asks for its admin token: pass --admin-token (or \(EnvironmentTwins.variable(for: "--admin-token"))), the token serve printed at start"
            )
        }
        guard answer.status == 200, let document = JSONValue.parse(answer.body) else {
            throw ValidationError(
                "\(self.command): \(self.address) answered \(answer.status): \(String(decoding: answer.body.prefix(500), as: UTF8.self))"
            )
        }
        return document
    }
}
