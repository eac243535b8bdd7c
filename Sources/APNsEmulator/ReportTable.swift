import APNsCore

/// A report card (the admin API's JSON) as a table for a terminal: the provider, then one line
/// per check with its verdict and what was seen.
enum ReportTable {
    static func text(_ report: JSONValue) -> String {
        let provider = report["provider"]
        let who = provider?["id"]?.string ?? "?"
        let requests = provider?["requests"]?.number.map { Int($0) } ?? 0
        let connections = provider?["connections"]?.number.map { Int($0) } ?? 0
        var lines = [
            "\(who): \(requests) requests over \(connections) connection\(connections == 1 ? "" : "s")"
                + (report["exam"] == .bool(true) ? " (exam on)" : "") + ": \(report["verdict"]?.string ?? "?")"
        ]
        guard case .array(let checks)? = report["checks"] else { return lines.joined(separator: "\n") }
        let width = checks.compactMap { $0["id"]?.string?.count }.max() ?? 0
        for check in checks {
            let id = check["id"]?.string ?? "?"
            let verdict = check["verdict"]?.string ?? "?"
            let mark = verdict == "pass" ? "PASS" : verdict == "fail" ? "FAIL" : "----"
            let summary = check["evidence"]?["summary"]?.string ?? ""
            lines.append("  \(mark)  \(id.padding(toLength: width, withPad: " ", startingAt: 0))  \(summary)")
            if verdict == "fail", case .array(let ids)? = check["evidence"]?["apnsIds"], !ids.isEmpty {
                lines.append(
                    "        \(String(repeating: " ", count: width))  apns-ids: \(ids.prefix(5).compactMap(\.string).joined(separator: ", "))"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The ids of the report's failed checks.
    static func failed(_ report: JSONValue) -> [String] {
        guard case .array(let checks)? = report["checks"] else { return [] }
        return checks.filter { $0["verdict"]?.string == "fail" }.compactMap { $0["id"]?.string }
    }
}
