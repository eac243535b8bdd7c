import APNsCore

extension JournalFilter {
    /// Reads `token`, `topic`, `pushType`, `status`, `interface`, `since`, `q` and `outcome` from a
    /// query string; the error names the parameter that is wrong. `q` is a search
    /// (``JournalSearch``); its `device:` asks `devices` for a device's tokens (nil: no such device).
    public static func parse(
        _ query: QueryParameters, devices: (String) -> Set<String>? = { _ in nil }
    ) throws(InspectionError) -> JournalFilter {
        var filter = JournalFilter(token: query["token"], topic: query["topic"], pushType: query["pushType"])
        filter.status = try query.parsed("status", JournalStatus.init(rawValue:), "status must be one of \(Self.statuses)")
        filter.interface = try query.parsed("interface", Interface.init(rawValue:), "interface must be one of \(Self.interfaces)")
        if let quiet = query["outcome"], quiet.lowercased() == Self.quiet {
            filter.quietly()
        } else {
            filter.outcome = try query.parsed("outcome", Self.outcome(named:), "outcome must be one of \(Self.outcomes)")
        }
        filter.since = try query.parsed(
            "since", Timestamp.parse, "since must be an RFC 3339 time or milliseconds since the UNIX epoch")
        filter.more.environment = try query.parsed(
            "environment", Self.environment(named:), "environment must be development (the sandbox) or production")
        if let q = query["q"] { try filter.apply(JournalSearch(q), devices: devices) }
        return filter
    }

    static let statuses = JournalStatus.all.map(\.rawValue).joined(separator: ", ")
    static let interfaces = Interface.all.map(\.rawValue).joined(separator: ", ")
    static let outcomes = (PhoneOutcome.State.all.map(\.rawValue) + [Self.quiet]).joined(separator: ", ")
    /// The outcome a filter may ask for beside the phone's states: shown, but delivered quietly
    /// (a Focus, its filter, provisional authorization, the Scheduled Summary or passive held it).
    static let quiet = "quiet"

    /// Shown, and delivered quietly: `outcome=quiet` is `outcome:shown is:quiet`.
    private mutating func quietly() {
        self.require(\.outcome, .shown)
        self.more.quiet = true
    }

    /// `development` (or `sandbox`) or `production`, in any case.
    static func environment(named name: String) -> APNsEnvironment? { APNsEnvironment(name: name.lowercased()) }

    static func outcome(named name: String) -> PhoneOutcome.State? {
        PhoneOutcome.State.all.first { $0.rawValue.lowercased() == name.lowercased() }
    }

    /// Adds a search's terms: the first word or phrase is ``search`` (the store can look for it in
    /// place), the others must be there too, `-` ones must not, and fields filter.
    mutating func apply(_ search: JournalSearch, devices: (String) -> Set<String>?) throws(InspectionError) {
        for term in search.terms {
            guard let field = term.field else {
                let text = term.value.lowercased()
                if term.excluded {
                    self.more.excluded.append(text)
                } else if self.search == nil {
                    self.search = text
                } else {
                    self.more.terms.append(text)
                }
                continue
            }
            if term.excluded {
                var excluded = JournalFilter()
                try excluded.set(field, term.value, devices: devices)
                self.more.exclusions.append(excluded)
            } else {
                try self.set(field, term.value, devices: devices)
            }
        }
    }

    /// One `field:value` of a search.
    private mutating func set(_ field: String, _ value: String, devices: (String) -> Set<String>?) throws(InspectionError) {
        let lower = value.lowercased()
        func bad(_ what: String) -> InspectionError {
            InspectionError(.badParameter, field: "q", "\(field):\(value) in q: \(field): takes \(what)")
        }
        guard !value.isEmpty else { throw bad("a value (\(field):<value>, no space after the colon)") }
        switch field {
        case "status":
            guard let status = JournalStatus.all.first(where: { $0.rawValue.lowercased() == lower }) else {
                throw bad("one of \(Self.statuses)")
            }
            self.require(\.status, status)
        case "outcome" where lower == Self.quiet: self.quietly()
        case "outcome":
            guard let outcome = Self.outcome(named: value) else { throw bad("one of \(Self.outcomes)") }
            self.require(\.outcome, outcome)
        case "interface":
            guard let interface = Interface.all.first(where: { $0.rawValue.lowercased() == lower }) else {
                throw bad("one of \(Self.interfaces)")
            }
            self.require(\.interface, interface)
        case "topic": self.require(\.topic, value)
        case "type": self.require(\.pushType, lower)
        case "token": self.more.tokenPrefix = lower
        case "device": self.more.deviceTokens = devices(value) ?? []
        case "reason": self.more.reason = lower
        case "environment", "env":
            guard let environment = Self.environment(named: value) else { throw bad("development (or sandbox) or production") }
            self.more.environment = environment
        case "is":
            switch lower {
            case "quiet": self.more.quiet = true
            case "warning", "warned": self.more.warning = true
            default: throw bad(JournalSearch.flags.joined(separator: " or "))
            }
        case "after", "before":
            guard let time = Timestamp.parse(value) else { throw bad("an RFC 3339 time or milliseconds since the UNIX epoch") }
            if field == "after" {
                self.since = max(self.since ?? .min, time)
            } else {
                self.more.before = min(self.more.before ?? .max, time)
            }
        default: throw bad("nothing: it is not a field")
        }
    }

    /// Sets a condition a parameter may have set already: two different values match nothing (an
    /// exclusion that matches everything says so).
    private mutating func require<T: Equatable>(_ path: WritableKeyPath<JournalFilter, T?>, _ value: T) {
        if let set = self[keyPath: path], set != value { self.more.exclusions.append(JournalFilter()) }
        self[keyPath: path] = value
    }
}
