import APNsCore

extension JournalFilter {
    /// Reads `token`, `topic`, `pushType`, `status`, `interface`, `since`, `q` and `outcome` from a
    /// query string; the error names the parameter that is wrong.
    public static func parse(_ query: QueryParameters) throws(InspectionError) -> JournalFilter {
        var filter = JournalFilter(token: query["token"], topic: query["topic"], pushType: query["pushType"])
        let statuses = JournalStatus.all.map(\.rawValue).joined(separator: ", ")
        filter.status = try query.parsed("status", JournalStatus.init(rawValue:), "status must be one of \(statuses)")
        let interfaces = Interface.all.map(\.rawValue).joined(separator: ", ")
        filter.interface = try query.parsed("interface", Interface.init(rawValue:), "interface must be one of \(interfaces)")
        filter.search = query["q"].flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let outcomes = PhoneOutcome.State.all.map(\.rawValue).joined(separator: ", ")
        filter.outcome = try query.parsed(
            "outcome",
            { PhoneOutcome.State.all.contains(PhoneOutcome.State(rawValue: $0)) ? PhoneOutcome.State(rawValue: $0) : nil },
            "outcome must be one of \(outcomes)")
        filter.since = try query.parsed(
            "since", Timestamp.parse, "since must be an RFC 3339 time or milliseconds since the UNIX epoch")
        return filter
    }
}
