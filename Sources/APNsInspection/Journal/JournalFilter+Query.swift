import APNsCore

extension JournalFilter {
    /// Reads `token`, `topic`, `pushType`, `status`, `interface` and `since` from a query string;
    /// the error names the parameter that is wrong.
    public static func parse(_ query: QueryParameters) throws(InspectionError) -> JournalFilter {
        var filter = JournalFilter(token: query["token"], topic: query["topic"], pushType: query["pushType"])
        let statuses = JournalStatus.all.map(\.rawValue).joined(separator: ", ")
        filter.status = try query.parsed("status", JournalStatus.init(rawValue:), "status must be one of \(statuses)")
        filter.interface = try query.parsed("interface", Interface.init(rawValue:), "interface must be http2 or binary")
        filter.since = try query.parsed(
            "since", Timestamp.parse, "since must be an RFC 3339 time or milliseconds since the UNIX epoch")
        return filter
    }
}
