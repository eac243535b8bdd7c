import APNsInspection
import Foundation
import Testing

/// The admin API's times (RFC 3339, UTC, milliseconds) against Foundation's own formatter, and
/// back through the parser.
@Suite("RFC 3339 timestamps")
struct TimestampTests {
    static func foundation(_ millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    @Test("each field in place, as Foundation writes it, and read back to the same millisecond")
    func fields() {
        // The epoch, a leap day, the last millisecond of a year, the largest four-digit year.
        var samples: [Int64] = [0, 1, 951_782_400_123, 1_798_761_599_999, 253_402_300_799_999]
        // Spread over 1970 to 2100 by a fixed step, so that a failure replays.
        samples += (0..<2000 as Range<Int64>).map { $0 * 2_051_222_400_007 % 4_102_444_800_000 }
        for millis in samples {
            let text = Timestamp.rfc3339(millis: millis)
            #expect(text.utf8.count == 24)
            #expect(text == Self.foundation(millis), "\(millis)")
            #expect(Timestamp.parse(text) == millis, "\(text)")
        }
        #expect(Timestamp.rfc3339(millis: 1_800_000_000_007) == "2027-01-15T08:00:00.007Z")
    }
}
