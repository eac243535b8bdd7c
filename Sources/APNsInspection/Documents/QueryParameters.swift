import APNsCore
import Foundation

/// The query string of an admin request, decoded (`%XX` and `+`); the first value of a name wins.
public struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    public init(uri: String) {
        guard let mark = uri.firstIndex(of: "?") else { return }
        for pair in uri[uri.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            if self.values[name] == nil { self.values[name] = parts.count > 1 ? Self.decode(parts[1]) : "" }
        }
    }

    public subscript(name: String) -> String? {
        guard let value = self.values[name], !value.isEmpty else { return nil }
        return value
    }

    /// A parameter that is not among `allowed` (the first by name), if any.
    public func unknown(allowed: Set<String>) -> String? {
        self.values.keys.filter { !allowed.contains($0) }.sorted().first
    }

    /// The first parameter given with an empty value, other than the flags in `flags`.
    public func emptyValue(except flags: Set<String>) -> String? {
        self.values.first { $0.value.isEmpty && !flags.contains($0.key) }?.key
    }

    /// Whether the parameter is given as true (`1`, `true`, `yes`, or present without a value) or
    /// false (absent, `0`, `false`, `no`); anything else is an error naming it.
    public func flag(_ name: String) throws(InspectionError) -> Bool {
        guard let value = self.values[name]?.lowercased() else { return false }
        guard let flag = ["": true, "1": true, "true": true, "yes": true, "0": false, "false": false, "no": false][value] else {
            throw InspectionError(.badParameter, field: name, "\(name) must be true or false")
        }
        return flag
    }

    /// The parameter read by `parse`; nil when absent, and `message` when it does not parse.
    public func parsed<T>(
        _ name: String, _ parse: (String) -> T?, _ message: @autoclosure () -> String
    ) throws(InspectionError) -> T? {
        guard let text = self[name] else { return nil }
        guard let value = parse(text) else { throw InspectionError(.badParameter, field: name, message()) }
        return value
    }

    /// A positive integer parameter, at most `maximum`; `fallback` when absent.
    public func integer(_ name: String, fallback: Int, maximum: Int) throws(InspectionError) -> Int {
        guard let text = self[name] else { return fallback }
        guard let value = Int(text), value > 0, value <= maximum else {
            throw InspectionError(.badParameter, field: name, "\(name) must be a whole number from 1 to \(maximum)")
        }
        return value
    }

    /// A duration such as `5s`, `250ms`, `1.5s` or `2` (seconds), at most `maximum`.
    public func duration(_ name: String, fallback: Duration, maximum: Duration) throws(InspectionError) -> Duration {
        guard let text = self[name] else { return fallback }
        guard let duration = DurationText.parse(text) else {
            throw InspectionError(.badParameter, field: name, "\(name) must be a duration such as 5s or 250ms")
        }
        guard duration <= maximum else { throw InspectionError(.badParameter, field: name, "\(name) must be at most \(maximum)") }
        return duration
    }

    /// The query as a string to send on (`a=1&b=2`, names in order), with `changes` made:
    /// a value sets a parameter, nil removes it.
    public func encoded(setting changes: [String: String?] = [:]) -> String {
        var values = self.values
        for (name, value) in changes { values[name] = value }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~:"))
        return values.sorted { $0.key < $1.key }.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }.joined(separator: "&")
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
