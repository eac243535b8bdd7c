import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import Crypto
import Foundation

/// Reading a seed document: each refusal names where in the file it is and what it must be.
extension SeedDocument {
    /// Reads `root` (a JSON or YAML file's value). `origin` names the file in errors; relative
    /// paths in it (`p8`, a certificate's `path`) are relative to `directory`.
    public init(_ root: JSONValue, origin: String, directory: String) throws(ServerError) {
        let reader = SeedReader(origin: origin, directory: directory)
        guard case .object(let members) = root else {
            throw reader.error("", "must be a mapping with any of \(Self.sections.sorted().joined(separator: ", "))")
        }
        if let unknown = members.keys.filter({ !Self.sections.contains($0) }).sorted().first {
            throw reader.error("", "unknown section \(unknown) (it takes \(Self.sections.sorted().joined(separator: ", ")))")
        }
        if let version = members["version"], version != .number(Double(Self.version)) {
            throw reader.error("version", "is \(Self.version) (the only version this emulator reads)")
        }
        self.init()
        self.clockOffset = try reader.clock(members["clock"])
        self.keys = try reader.list(members["keys"], "keys", reader.key)
        self.certificates = try reader.list(members["certificates"], "certificates", reader.certificates).flatMap { $0 }
        self.devices = try reader.list(members["devices"], "devices", reader.device)
        self.channels = try reader.list(members["channels"], "channels", reader.channel)
        self.broadcastDisabled = try reader.list(members["broadcastDisabled"], "broadcastDisabled") {
            (value, path) throws(ServerError) in
            guard let bundle = value.string, !bundle.isEmpty else { throw reader.error(path, "must be a bundle id") }
            return bundle
        }
        self.faults = try reader.list(members["faults"], "faults", reader.fault)
    }
}

/// The reading of one seed file.
struct SeedReader {
    let origin: String
    let directory: String

    func error(_ path: String, _ message: String) -> ServerError {
        ServerError(.badConfiguration, subject: path.isEmpty ? self.origin : "\(self.origin): \(path)", message)
    }

    func list<T>(
        _ value: JSONValue?, _ path: String, _ item: (JSONValue, String) throws(ServerError) -> T
    ) throws(ServerError)
        -> [T]
    {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else { throw self.error(path, "must be a list") }
        var read: [T] = []
        for (index, element) in items.enumerated() { read.append(try item(element, "\(path)[\(index)]")) }
        return read
    }

    func members(
        _ value: JSONValue, _ path: String, allowed: [String], what: String
    ) throws(ServerError) -> [String: JSONValue] {
        guard case .object(let members) = value else { throw self.error(path, "must be a mapping with \(what)") }
        if let unknown = members.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw self.error(path, "has no field \(unknown) (\(allowed.joined(separator: ", ")))")
        }
        return members
    }

    func string(_ value: JSONValue?, _ path: String, _ what: String) throws(ServerError) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.string, !text.isEmpty else { throw self.error(path, "must be \(what)") }
        return text
    }

    /// A time: milliseconds since the UNIX epoch, or an RFC 3339 date as the admin API writes.
    func time(_ value: JSONValue?, _ path: String) throws(ServerError) -> Int64? {
        switch value {
        case nil, .null?: return nil
        case .number(let millis)? where millis >= 0 && millis == millis.rounded(): return Int64(millis)
        case .string(let text)? where Timestamp.parse(text) != nil: return Timestamp.parse(text)
        default: throw self.error(path, "must be an RFC 3339 date (2026-11-26T10:00:00.000Z) or milliseconds since 1970")
        }
    }

    /// A mapping, or nothing (absent or null).
    func mapping(_ value: JSONValue?, _ path: String) throws(ServerError) -> JSONValue? {
        switch value {
        case nil, .null?: return nil
        case .object?: return value
        default: throw self.error(path, "must be a mapping")
        }
    }

    func clock(_ value: JSONValue?) throws(ServerError) -> Int64 {
        guard let value, value != .null else { return 0 }
        let members = try self.members(value, "clock", allowed: ["offset", "offsetMs"], what: "offset (90m) or offsetMs")
        if let millis = members["offsetMs"] {
            guard let number = millis.number, number >= 0, number == number.rounded() else {
                throw self.error("clock.offsetMs", "must be a whole number of milliseconds, 0 or more")
            }
            return Int64(number)
        }
        guard let text = try self.string(members["offset"], "clock.offset", "a duration such as 90m or 2h") else { return 0 }
        guard let duration = DurationText.parse(text), duration >= .zero else {
            throw self.error("clock.offset", "\(text) is not a duration such as 90m, 2h or 30s")
        }
        return duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
