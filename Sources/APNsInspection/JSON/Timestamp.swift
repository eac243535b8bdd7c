import APNsCore
import Foundation

/// RFC 3339 timestamps in UTC with milliseconds, without Foundation's formatters.
public enum Timestamp {
    public static func rfc3339(millis: Int64) -> String {
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
        guard millis >= 0, year <= 9999 else {
            func pad(_ value: Int64, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
                + "\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milli, 3))Z"
        }
        // Every journal page and activity document writes several: 24 bytes written in place,
        // not seven strings joined.
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int64, _ width: Int, at end: Int) {
                var value = value
                for index in stride(from: end - 1, through: end - width, by: -1) {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 4)
            put(month, 2, at: 7)
            put(day, 2, at: 10)
            put(secondOfDay / 3600, 2, at: 13)
            put(secondOfDay % 3600 / 60, 2, at: 16)
            put(secondOfDay % 60, 2, at: 19)
            put(milli, 3, at: 23)
            (text[4], text[7], text[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
            (text[13], text[16], text[19], text[23]) = (
                UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z")
            )
            return 24
        }
    }
}

extension Timestamp {
    /// Milliseconds since the UNIX epoch from an RFC 3339 time (`2026-11-21T10:00:00Z`, with
    /// optional fraction and offset) or a plain number of milliseconds.
    public static func parse(_ text: String) -> Int64? {
        if let millis = Int64(text) { return millis }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return nil
    }
}

extension JSONWriter {
    /// An RFC 3339 time from milliseconds since the UNIX epoch, or `null`.
    public mutating func optionalTime(_ millis: Int64?) {
        if let millis { self.string(Timestamp.rfc3339(millis: millis)) } else { self.raw("null") }
    }
}
