import Foundation
import APNsCore

/// Builds JSON text by hand: the admin API's output is small and fixed in shape, and payloads,
/// already validated as JSON objects, are embedded as they are.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends a string literal with JSON escaping.
    mutating func string(_ value: String) {
        self.bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): self.raw("\\\"")
            case UInt8(ascii: "\\"): self.raw("\\\\")
            case 0x0A: self.raw("\\n")
            case 0x0D: self.raw("\\r")
            case 0x09: self.raw("\\t")
            case 0x00..<0x20:
                self.raw("\\u00")
                self.bytes.append(contentsOf: Array(Hex.encode([byte]).utf8))
            default: self.bytes.append(byte)
            }
        }
        self.bytes.append(UInt8(ascii: "\""))
    }

    mutating func optionalString(_ value: String?) {
        if let value { self.string(value) } else { self.raw("null") }
    }

    mutating func number<I: BinaryInteger>(_ value: I) { self.raw(String(value)) }

    /// Appends text that is already JSON.
    mutating func raw(_ text: String) { self.bytes.append(contentsOf: text.utf8) }

    mutating func raw(_ bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }

    /// Writes `{"k": v, ...}`, calling `body` with a member writer.
    mutating func object(_ body: (inout Members) -> Void) {
        var members = Members(writer: self)
        self.bytes = []
        members.writer.raw("{")
        body(&members)
        members.writer.raw("}")
        self = members.writer
    }

    /// Writes `[...]` of `items`.
    mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        self.raw("[")
        var first = true
        for item in items {
            if !first { self.raw(",") }
            first = false
            element(&self, item)
        }
        self.raw("]")
    }

    struct Members {
        var writer: JSONWriter
        private var first = true

        init(writer: JSONWriter) { self.writer = writer }

        /// Adds one member; `value` writes its JSON.
        mutating func member(_ key: String, _ value: (inout JSONWriter) -> Void) {
            if !self.first { self.writer.raw(",") }
            self.first = false
            self.writer.string(key)
            self.writer.raw(":")
            value(&self.writer)
        }
    }
}

/// RFC 3339 timestamps in UTC with milliseconds, without Foundation's formatters.
enum Timestamp {
    static func rfc3339(millis: Int64) -> String {
        let (seconds, milli) = millis.quotientAndRemainder(dividingBy: 1000)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milli, 3))Z"
    }
}

extension Timestamp {
    /// Milliseconds since the UNIX epoch from an RFC 3339 time (`2026-11-21T10:00:00Z`, with
    /// optional fraction and offset) or a plain number of milliseconds.
    static func parse(_ text: String) -> Int64? {
        if let millis = Int64(text) { return millis }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return nil
    }
}
