import APNsCore
import Foundation

/// A notification an app scheduled on the phone (`UNNotificationRequest`): what it shows, and
/// when it fires.
public struct LocalNotificationRequest: Hashable, Sendable, Codable {
    public var identifier: String
    public var content: LocalContent
    public var trigger: NotificationTrigger
    /// Milliseconds since the UNIX epoch (the emulator's clock) when it was scheduled.
    public var scheduledAt: Int64
    /// When it fires next by the clock; nil for a location trigger (it waits for the device to
    /// move).
    public var nextFireAt: Int64?

    public init(identifier: String, content: LocalContent, trigger: NotificationTrigger, scheduledAt: Int64, nextFireAt: Int64?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
        self.scheduledAt = scheduledAt
        self.nextFireAt = nextFireAt
    }
}

extension AppModel {
    /// iOS keeps at most this many pending local notifications per app: the soonest-firing ones.
    public static let pendingLimit = 64

    /// Schedules `request` (replacing one with the same identifier) and keeps the 64 that fire
    /// soonest; returns those that no longer fit (the latest-firing, location triggers last).
    @discardableResult
    public mutating func schedule(_ request: LocalNotificationRequest) -> [LocalNotificationRequest] {
        self.pending.removeAll { $0.identifier == request.identifier }
        self.pending.append(request)
        guard self.pending.count > Self.pendingLimit else { return [] }
        let ordered = self.pending.enumerated().sorted { a, b in
            switch (a.element.nextFireAt, b.element.nextFireAt) {
            case (let x?, let y?): return x != y ? x < y : a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
        self.pending = Array(ordered.prefix(Self.pendingLimit))
        return Array(ordered.dropFirst(Self.pendingLimit))
    }

    /// Takes out what is due at `now`: a non-repeating request leaves the pending list, a
    /// repeating one stays with its next time (a request late by several periods fires once).
    public mutating func takeDue(now: Int64, deviceTimeZone: TimeZone) -> [LocalNotificationRequest] {
        var due: [LocalNotificationRequest] = []
        var kept: [LocalNotificationRequest] = []
        for var request in self.pending {
            guard let at = request.nextFireAt, at <= now else {
                kept.append(request)
                continue
            }
            due.append(request)
            if request.trigger.repeats,
                let next = request.trigger.nextFire(after: now, scheduledAt: request.scheduledAt, deviceTimeZone: deviceTimeZone)
            {
                request.nextFireAt = next
                kept.append(request)
            }
        }
        self.pending = kept
        return due
    }
}

extension AppModel {
    /// The phone's time zone as a value (UTC if the name is unknown).
    public var deviceTimeZone: TimeZone { TimeZone(identifier: self.timeZone) ?? TimeZone(identifier: "UTC") ?? .current }

    /// After the device's time zone changed: floating calendar requests fire at their wall-clock
    /// time in the new zone; fixed-zone ones and intervals keep their instant.
    public mutating func timeZoneChanged(now: Int64) {
        let zone = self.deviceTimeZone
        for index in self.pending.indices {
            guard case .calendar(_, nil, _) = self.pending[index].trigger else { continue }
            self.pending[index].nextFireAt = self.pending[index].trigger.nextFire(
                after: now, scheduledAt: self.pending[index].scheduledAt, deviceTimeZone: zone)
        }
    }
}

extension AppModel {
    /// The device moved to `to`: the region requests it entered or left (as each asks) fire, if
    /// the user lets the app use the location; a one-shot request then leaves the pending list.
    public mutating func moved(to point: Coordinate) -> [LocalNotificationRequest] {
        let from = self.location
        self.location = point
        guard self.locationAuthorization.allows else { return [] }
        var fired: [LocalNotificationRequest] = []
        self.pending.removeAll { request in
            guard case .location(let region, let repeats) = request.trigger else { return false }
            let wasInside = from.map { region.contains(latitude: $0.latitude, longitude: $0.longitude) } ?? false
            let isInside = region.contains(latitude: point.latitude, longitude: point.longitude)
            guard (!wasInside && isInside && region.notifyOnEntry) || (wasInside && !isInside && region.notifyOnExit) else {
                return false
            }
            fired.append(request)
            return !repeats
        }
        return fired
    }
}
