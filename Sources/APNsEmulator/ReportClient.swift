import APNsAdminClient
import APNsCore
import ArgumentParser
import Foundation

/// The admin API's report card, for `apns-emulator report`.
struct ReportClient {
    let host: String
    let port: Int
    let token: String?

    init(host: String, port: Int, token: String?) {
        self.host = host
        self.port = port
        self.token = AdminTokenFile.token(given: token, host: host, port: port)
    }

    var address: String { "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.port)" }

    /// The ids of every provider the emulator has seen.
    func providerIDs() async throws -> [String] {
        guard case .array(let items)? = try await self.get("/api/v1/providers")["items"] else { return [] }
        return items.compactMap { $0["id"]?.string }
    }

    /// One provider's report.
    func report(of id: String) async throws -> JSONValue {
        let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
        return try await self.get("/api/v1/providers/\(path)/report")
    }

    private func get(_ path: String) async throws -> JSONValue {
        let answer: AdminHTTPClient.Answer
        do {
            answer = try await AdminHTTPClient(connectTimeout: .seconds(5), token: self.token).request(
                self.address, method: "GET", path: path, timeout: .seconds(30)
            ).get()
        } catch {
            throw ValidationError("report: no emulator's admin API answered at \(self.address): \(error)")
        }
        if answer.status == 401 {
            throw ValidationError(
                "report: \(self.address) asks for its admin token: pass --admin-token (or \(EnvironmentTwins.variable(for: "--admin-token"))), the token serve printed at start"
            )
        }
        guard answer.status == 200, let document = JSONValue.parse(answer.body) else {
            throw ValidationError(
                "report: \(self.address) answered \(answer.status) for \(path): \(String(decoding: answer.body.prefix(500), as: UTF8.self))"
            )
        }
        return document
    }
}
