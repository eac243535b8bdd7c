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
            guard seconds.isFinite, seconds > 0, seconds <= 1e9 else {
                throw DeviceModelError(.invalid, field: "trigger.seconds", "seconds must be more than 0 and at most 1e9")
            }
            if repeats, seconds < Self.shortestRepeatingInterval {
                throw DeviceModelError(
                    .invalid, field: "trigger.seconds", "a repeating interval must be at least 60 seconds (iOS refuses less)")
            }
        case .calendar(let components, let timeZone, _):
            guard !components.isEmpty else {
                throw DeviceModelError(
                    .invalid, field: "trigger.dateComponents",
                    "dateComponents needs at least one of year, month, day, hour, minute, second, weekday")
            }
            if let problem = components.problem { throw DeviceModelError(.invalid, field: "trigger.dateComponents", problem) }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw DeviceModelError(
                    .invalid, field: "trigger.timeZone", "\(timeZone) is not a time zone (use an IANA name such as Europe/Paris)")
            }
        case .location(let region, _):
            guard (-90...90).contains(region.latitude), (-180...180).contains(region.longitude) else {
                throw DeviceModelError(.invalid, field: "trigger.latitude", "latitude is -90 to 90 and longitude -180 to 180")
            }
            guard region.radius > 0, region.radius <= 1e7 else {
                throw DeviceModelError(
                    .invalid, field: "trigger.radius", "radius must be more than 0 and at most 10,000 km (1e7 metres)")
            }
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
                guard let date = calendar.nextDate(after: start, matching: components.dateComponents, matchingPolicy: .nextTime)
                else { return nil }
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
            throw DeviceModelError(
                .invalid, field: "trigger.type", "trigger type \(other) is not timeInterval, calendar or location")
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
