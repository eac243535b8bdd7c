import APNsCore
import Foundation

extension RunningEmulator {
    /// An admin request whose answer must be `status`, parsed as a JSON object.
    public func adminObject(
        _ path: String, method: String = "GET", body: String? = nil, status: Int = 200
    ) async throws -> [String: Any] {
        let response = try await self.admin(path, method: method, body: body)
        guard response.status == status, let object = try response.json() as? [String: Any] else {
            throw AdminTestClient.UnexpectedResponse(response: response)
        }
        return object
    }

    /// `GET /api/v1/notifications` with a query; the page's items.
    public func journal(_ query: String = "") async throws -> [[String: Any]] {
        let page = try await self.adminObject("/api/v1/notifications" + (query.isEmpty ? "" : "?" + query))
        return page["items"] as? [[String: Any]] ?? []
    }

    /// Each journal item's status by its id, from one read of the journal.
    public func journalStatuses(_ query: String = "") async throws -> [String: String] {
        let items = try await self.journal(query)
        return Dictionary(items.map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
    }
}
