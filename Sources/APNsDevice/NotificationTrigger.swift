import Foundation

/// When a local notification fires (UserNotifications' trigger types).
public enum NotificationTrigger: Hashable, Sendable {
    /// `seconds` after it was scheduled; a repeating one every `seconds` (at least 60, as iOS
    /// requires).
    case timeInterval(seconds: Double, repeats: Bool)
    /// The next time the clock matches `components` (hour, minute, weekday, ...), in `timeZone`
    /// (an IANA name: a fixed instant) or, when nil, in the device's time zone (floating wall-clock
    /// time that follows the device).
    case calendar(components: DateComponentsValue, timeZone: String?, repeats: Bool)
    /// Entering and/or leaving a circular region; fires only with location authorization. One
    /// with neither is taken, as iOS takes it, and never fires.
    case location(Region, repeats: Bool)

    public var repeats: Bool {
        switch self {
        case .timeInterval(_, let repeats), .calendar(_, _, let repeats), .location(_, let repeats): repeats
        }
    }

    /// The shortest interval a repeating time-interval trigger may have (iOS refuses less).
    public static let shortestRepeatingInterval = 60.0

    /// Refuses a trigger iOS would not take.
    public func validate() throws(DeviceModelError) {
        switch self {
        case .timeInterval(let seconds, let repeats):
            guard seconds.isFinite, seconds > 0, seconds <= 1e9 else { throw DeviceModelError(.invalid, field: "trigger.seconds", "seconds must be more than 0 and at most 1e9") }
            if repeats, seconds < Self.shortestRepeatingInterval {
                throw DeviceModelError(.invalid, field: "trigger.seconds", "a repeating interval must be at least 60 seconds (iOS refuses less)")
            }
        case .calendar(let components, let timeZone, _):
            guard !components.isEmpty else { throw DeviceModelError(.invalid, field: "trigger.dateComponents", "dateComponents needs at least one of year, month, day, hour, minute, second, weekday") }
            if let problem = components.problem { throw DeviceModelError(.invalid, field: "trigger.dateComponents", problem) }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw DeviceModelError(.invalid, field: "trigger.timeZone", "\(timeZone) is not a time zone (use an IANA name such as Europe/Paris)")
            }
        case .location(let region, _):
            guard (-90...90).contains(region.latitude), (-180...180).contains(region.longitude) else {
                throw DeviceModelError(.invalid, field: "trigger.latitude", "latitude is -90 to 90 and longitude -180 to 180")
            }
            guard region.radius > 0, region.radius <= 1e7 else { throw DeviceModelError(.invalid, field: "trigger.radius", "radius must be more than 0 and at most 10,000 km (1e7 metres)") }
        }
    }

    /// When it fires next after `after` (ms since the UNIX epoch), for a request scheduled at
    /// `scheduledAt`, on a device in `deviceTimeZone`; nil when it never will by the clock (a
    /// location trigger, or a calendar date that has passed).
    /// How many candidate days a calendar trigger's next fire date is looked for in: enough for a
    /// 29 February on a given weekday (28 years), bounded for a date that never comes.
    static let dateSearchLimit = 64

    public func nextFire(after: Int64, scheduledAt: Int64, deviceTimeZone: TimeZone) -> Int64? {
        switch self {
        case .timeInterval(let seconds, let repeats):
            let interval = max(1, Int64((seconds * 1000).rounded()))
            let first = scheduledAt + interval
            if after < first { return first }
            guard repeats else { return nil }
            return first + ((after - first) / interval + 1) * interval
        case .calendar(let components, let timeZone, _):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? deviceTimeZone
            // `.nextTime` moves a wall-clock time that a daylight-saving change skips to the next
            // one that exists, but it also turns a date that does not exist (30 February, 31 April)
            // into the next day: such a day is looked for again, further on, and a date no calendar
            // has never fires.
            var start = Date(timeIntervalSince1970: Double(after) / 1000)
            for _ in 0..<Self.dateSearchLimit {
                guard let date = calendar.nextDate(after: start, matching: components.dateComponents, matchingPolicy: .nextTime) else { return nil }
                if components.sameDay(as: calendar.dateComponents([.year, .month, .day, .weekday], from: date)) {
                    return Int64((date.timeIntervalSince1970 * 1000).rounded())
                }
                start = date
            }
            return nil
        case .location:
            return nil
        }
    }
}

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

    public init(year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Int? = nil, weekday: Int? = nil) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.weekday) = (year, month, day, hour, minute, second, weekday)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case year, month, day, hour, minute, second, weekday }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "dateComponents")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A field is a number or absent: null would read as "any", which nobody means.
        func field(_ key: CodingKeys) throws -> Int? { container.contains(key) ? try container.decode(Int.self, forKey: key) : nil }
        self.init(
            year: try field(.year), month: try field(.month), day: try field(.day), hour: try field(.hour),
            minute: try field(.minute), second: try field(.second), weekday: try field(.weekday)
        )
    }

    /// Why these components can never match (a field out of its range), if so.
    public var problem: String? {
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("year", self.year, 1970...9999), ("month", self.month, 1...12), ("day", self.day, 1...31), ("hour", self.hour, 0...23),
            ("minute", self.minute, 0...59), ("second", self.second, 0...59), ("weekday", self.weekday, 1...7),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) { return "\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)" }
        }
        return nil
    }

    public var isEmpty: Bool { [self.year, self.month, self.day, self.hour, self.minute, self.second, self.weekday].allSatisfy { $0 == nil } }

    var dateComponents: DateComponents {
        DateComponents(year: self.year, month: self.month, day: self.day, hour: self.hour, minute: self.minute, second: self.second ?? (self.isTimeOnlyToTheMinute ? 0 : nil), weekday: self.weekday)
    }

    /// Whether a found date is on a day these components ask for (their date fields all match).
    func sameDay(as found: DateComponents) -> Bool {
        (self.year == nil || self.year == found.year) && (self.month == nil || self.month == found.month)
            && (self.day == nil || self.day == found.day) && (self.weekday == nil || self.weekday == found.weekday)
    }

    /// A time given to the minute fires at its first second, as on iOS.
    private var isTimeOnlyToTheMinute: Bool { self.minute != nil && self.second == nil }
}

/// A circle on the map.
public struct Region: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    public init(latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = false) {
        (self.latitude, self.longitude, self.radius, self.notifyOnEntry, self.notifyOnExit) = (latitude, longitude, radius, notifyOnEntry, notifyOnExit)
    }

    /// Whether a point lies inside (great-circle distance, metres).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        let radians = Double.pi / 180
        let dLat = (latitude - self.latitude) * radians
        let dLon = (longitude - self.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(self.latitude * radians) * cos(latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot()) <= self.radius
    }
}

extension NotificationTrigger: Codable {
    /// UserNotifications' names: `{"type": "timeInterval", "seconds", "repeats"}`, `{"type":
    /// "calendar", "dateComponents", "timeZone", "repeats"}`, `{"type": "location", "latitude",
    /// "longitude", "radius", "notifyOnEntry", "notifyOnExit", "repeats"}`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, seconds, repeats, dateComponents, timeZone, latitude, longitude, radius, notifyOnEntry, notifyOnExit
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "a trigger")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let repeats = try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false
        switch try container.decode(String.self, forKey: .type) {
        case "timeInterval":
            self = .timeInterval(seconds: try container.decode(Double.self, forKey: .seconds), repeats: repeats)
        case "calendar":
            self = .calendar(
                components: try container.decode(DateComponentsValue.self, forKey: .dateComponents),
                timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone), repeats: repeats
            )
        case "location":
            let region = Region(
                latitude: try container.decode(Double.self, forKey: .latitude),
                longitude: try container.decode(Double.self, forKey: .longitude),
                radius: try container.decode(Double.self, forKey: .radius),
                notifyOnEntry: try container.decodeIfPresent(Bool.self, forKey: .notifyOnEntry) ?? true,
                notifyOnExit: try container.decodeIfPresent(Bool.self, forKey: .notifyOnExit) ?? false
            )
            self = .location(region, repeats: repeats)
        case let other:
            throw DeviceModelError(.invalid, field: "trigger.type", "trigger type \(other) is not timeInterval, calendar or location")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.repeats, forKey: .repeats)
        switch self {
        case .timeInterval(let seconds, _):
            try container.encode("timeInterval", forKey: .type)
            try container.encode(seconds, forKey: .seconds)
        case .calendar(let components, let timeZone, _):
            try container.encode("calendar", forKey: .type)
            try container.encode(components, forKey: .dateComponents)
            try container.encode(timeZone, forKey: .timeZone)
        case .location(let region, _):
            try container.encode("location", forKey: .type)
            try container.encode(region.latitude, forKey: .latitude)
            try container.encode(region.longitude, forKey: .longitude)
            try container.encode(region.radius, forKey: .radius)
            try container.encode(region.notifyOnEntry, forKey: .notifyOnEntry)
            try container.encode(region.notifyOnExit, forKey: .notifyOnExit)
        }
    }
}

/// A point on the map.
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What the user allows an app to know of the device's location (Core Location's statuses).
public enum LocationAuthorization: String, Hashable, Sendable, Codable, CaseIterable {
    case notDetermined
    case denied
    case authorizedWhenInUse
    case authorizedAlways

    public var allows: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}
