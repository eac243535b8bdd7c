import APNsCore
import APNsInspection

extension JournalFilter {
    /// Reads `token`, `topic`, `pushType`, `status`, `interface` and `since` from a query string;
    /// the error names the parameter that is wrong.
    static func parse(_ query: QueryParameters) throws(ServerError) -> JournalFilter {
        var filter = JournalFilter(token: query["token"], topic: query["topic"], pushType: query["pushType"])
        if let status = query["status"] {
            guard let parsed = JournalStatus(rawValue: status) else {
                let known = JournalStatus.all.map(\.rawValue).joined(separator: ", ")
                throw ServerError(.badRequest, subject: "status", "status must be one of \(known)")
            }
            filter.status = parsed
        }
        if let interface = query["interface"] {
            guard let parsed = Interface(rawValue: interface) else {
                throw ServerError(.badRequest, subject: "interface", "interface must be http2 or binary")
            }
            filter.interface = parsed
        }
        if let since = query["since"] {
            guard let parsed = Timestamp.parse(since) else {
                throw ServerError(.badRequest, subject: "since", "since must be an RFC 3339 time or milliseconds since the UNIX epoch")
            }
            filter.since = parsed
        }
        return filter
    }
}
