import APNsCore

/// Merging what several shards answered into one answer: journal pages and Prometheus text.
public enum ClusterMerge {
    /// Journal pages merged: every shard's items, newest first, and their totals summed.
    public struct Page: Sendable {
        public var total = 0
        public var items: [JSONValue] = []
        /// The shards whose page was read.
        public var answered: [Int] = []
    }

    /// Merges `pages` (each shard's `{"total", "items"}`); a page that does not parse is left out
    /// (its shard is not among `answered`).
    public static func pages(_ pages: [(shard: Int, body: [UInt8])]) -> Page {
        var merged = Page()
        for (shard, body) in pages {
            guard let page = JSONValue.parse(body), case .array(let items)? = page["items"] else { continue }
            merged.total += Int(page["total"]?.number ?? 0)
            merged.items += items
            merged.answered.append(shard)
        }
        merged.items = self.newestFirst(merged.items)
        return merged
    }

    /// Journal items newest first: by `receivedAt` (RFC 3339 in UTC with milliseconds, so text
    /// order is time order), then by id.
    public static func newestFirst(_ items: [JSONValue]) -> [JSONValue] {
        items.sorted {
            ($0["receivedAt"]?.string ?? "", $0["id"]?.string ?? "") > ($1["receivedAt"]?.string ?? "", $1["id"]?.string ?? "")
        }
    }

    /// Several shards' Prometheus text as one exposition: each metric family's `# HELP` and
    /// `# TYPE` once, followed by every shard's samples, each labelled `shard="K"`.
    public static func metrics(_ texts: [(shard: Int, text: String)]) -> String {
        var order: [String] = []
        var headers: [String: [String]] = [:]
        var samples: [String: [String]] = [:]
        for (shard, text) in texts {
            var family = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
                if line.hasPrefix("# ") {
                    let words = line.split(separator: " ", maxSplits: 3)
                    guard words.count >= 3 else { continue }
                    family = String(words[2])
                    if headers[family] == nil { order.append(family) }
                    if !(headers[family] ?? []).contains(line) { headers[family, default: []].append(line) }
                    continue
                }
                if family.isEmpty || !line.hasPrefix(family) {
                    family = String(line.prefix { $0 != "{" && $0 != " " })
                    if headers[family] == nil {
                        order.append(family)
                        headers[family] = []
                    }
                }
                samples[family, default: []].append(self.labelled(line, shard: shard))
            }
        }
        return order.map { family in ((headers[family] ?? []) + (samples[family] ?? [])).joined(separator: "\n") + "\n" }.joined()
    }

    /// One sample line with `shard="K"` first among its labels.
    static func labelled(_ line: String, shard: Int) -> String {
        guard let space = line.firstIndex(of: " ") else { return line }
        let name = line[..<space]
        if let brace = name.firstIndex(of: "{") {
            let rest = line[line.index(after: brace)...]
            return line[..<brace] + "{shard=\"\(shard)\"" + (rest.hasPrefix("}") ? "" : ",") + rest
        }
        return name + "{shard=\"\(shard)\"}" + line[space...]
    }
}
