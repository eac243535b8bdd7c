import APNsCore

/// The admin API's `q`, read as a person types a mail client's search (Mailpit's grammar): words
/// are AND-ed, `"quoted phrases"` are one term (quotes inside a word, as in `"n":7`, are part of
/// it), `-word` (or `-"a phrase"`) excludes, and
/// `field:value` filters by what a person filters by. Every term and value is compared without case.
///
/// Fields: `status:`, `outcome:`, `interface:`, `topic:`, `type:` (the push type), `token:` (a hex
/// prefix), `device:` (a device id), `reason:`, `is:quiet` (delivered quietly), `is:warning` (the
/// lint has something to say), `environment:` (`development`, `sandbox` or `production`: the endpoint
/// it was sent to; `env:` for short), `after:` and `before:` (RFC 3339 or milliseconds since the UNIX
/// epoch). A word with a colon before an unknown name (`https://…`) is a word.
public struct JournalSearch: Sendable, Equatable {
    /// One term of the query as typed.
    public struct Term: Sendable, Equatable {
        public var excluded: Bool
        public var field: String?
        public var value: String
    }

    /// The names `field:value` takes.
    public static let fields: Set<String> = [
        "status", "outcome", "interface", "topic", "type", "token", "device", "reason", "is", "after", "before",
        "environment", "env",
    ]
    /// What `is:` takes.
    public static let flags = ["quiet", "warning"]

    public var terms: [Term]

    public init(_ query: String) {
        self.terms = Self.split(query)
    }

    /// The query's terms: spaces separate them, except inside double quotes.
    static func split(_ query: String) -> [Term] {
        var terms: [Term] = []
        var index = query.startIndex
        while index < query.endIndex {
            if query[index].isWhitespace {
                index = query.index(after: index)
                continue
            }
            var excluded = false
            if query[index] == "-", query.index(after: index) < query.endIndex,
                !query[query.index(after: index)].isWhitespace
            {
                excluded = true
                index = query.index(after: index)
            }
            var field: String?
            let rest = query[index...]
            if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains(where: { $0.isWhitespace || $0 == "\"" }) {
                let name = rest[..<colon].lowercased()
                if Self.fields.contains(name) {
                    field = name
                    index = query.index(after: colon)
                }
            }
            let (value, next) = Self.value(in: query, from: index)
            index = next
            if !value.isEmpty || field != nil { terms.append(Term(excluded: excluded, field: field, value: value)) }
        }
        return terms
    }

    /// A term: to the next space outside double quotes. One that is all a quoted phrase
    /// (`"big day"`) loses its quotes; quotes inside one (`"n":7`, a payload's JSON) are kept.
    private static func value(in query: String, from start: String.Index) -> (String, String.Index) {
        var index = start
        var quoted = false
        while index < query.endIndex, quoted || !query[index].isWhitespace {
            if query[index] == "\"" { quoted.toggle() }
            index = query.index(after: index)
        }
        let term = query[start..<index]
        let inner = term.dropFirst().dropLast()
        if term.count >= 2, term.first == "\"", term.last == "\"", !inner.contains("\"") { return (String(inner), index) }
        if term.first == "\"", !term.dropFirst().contains("\"") { return (String(term.dropFirst()), index) }
        return (String(term), index)
    }
}
