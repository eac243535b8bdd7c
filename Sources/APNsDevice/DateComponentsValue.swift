import Foundation

/// Calendar fields a trigger matches; nil fields match anything.
public struct DateComponentsValue: Hashable, Sendable, Codable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?
    /// 1 is Sunday, as in Foundation's Gregorian calendar.
    public var weekday: Int?

    public init(
        year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Int? = nil,
        weekday: Int? = nil
    ) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.weekday) = (
            year, month, day, hour, minute, second, weekday
        )
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case year, month, day, hour, minute, second, weekday }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "dateComponents")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A field is a number or absent: null would read as "any", which nobody means.
        func field(_ key: CodingKeys) throws -> Int? {
            container.contains(key) ? try container.decode(Int.self, forKey: key) : nil
        }
        self.init(
            year: try field(.year), month: try field(.month), day: try field(.day), hour: try field(.hour),
            minute: try field(.minute), second: try field(.second), weekday: try field(.weekday)
        )
    }

    /// Why these components can never match (a field out of its range), if so.
    public var problem: String? {
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("year", self.year, 1970...9999), ("month", self.month, 1...12), ("day", self.day, 1...31),
            ("hour", self.hour, 0...23),
            ("minute", self.minute, 0...59), ("second", self.second, 0...59), ("weekday", self.weekday, 1...7),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) {
                return "\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)"
            }
        }
        return nil
    }

    public var isEmpty: Bool {
        [self.year, self.month, self.day, self.hour, self.minute, self.second, self.weekday].allSatisfy { $0 == nil }
    }

    var dateComponents: DateComponents {
        DateComponents(
            year: self.year, month: self.month, day: self.day, hour: self.hour, minute: self.minute,
            second: self.second ?? (self.isTimeOnlyToTheMinute ? 0 : nil), weekday: self.weekday)
    }

    /// Whether a found date is on a day these components ask for (their date fields all match).
    func sameDay(as found: DateComponents) -> Bool {
        (self.year == nil || self.year == found.year) && (self.month == nil || self.month == found.month)
            && (self.day == nil || self.day == found.day) && (self.weekday == nil || self.weekday == found.weekday)
    }

    /// A time given to the minute fires at its first second, as on iOS.
    private var isTimeOnlyToTheMinute: Bool { self.minute != nil && self.second == nil }
}
