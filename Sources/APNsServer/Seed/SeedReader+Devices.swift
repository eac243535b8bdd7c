import APNsCore
import APNsDevice
import Foundation

/// Devices and channels in a seed file.
extension SeedReader {
    static let deviceFields = ["id", "phone", "power", "focus", "apps"]
    static let appFields = [
        "topic", "token", "environment", "registeredAt", "unregisteredAt", "feedbackRead", "settings", "location",
        "pushToStartToken", "webApp",
    ]

    /// `{id, power, focus, apps: [...]}`; or, as `serve --config` files have it, one app without a
    /// device: `{topic, token, app: {settings}}`.
    func device(_ value: JSONValue, _ path: String) throws(ServerError) -> SeedDocument.Device {
        if case .object(var members) = value, members["topic"] != nil {
            let settings = members.removeValue(forKey: "app")
            if let settings { members["settings"] = settings }
            return SeedDocument.Device(id: nil, power: nil, focus: nil, apps: [try self.app(.object(members), path)])
        }
        let fields = try self.members(value, path, allowed: Self.deviceFields, what: "id, phone, power, focus and apps")
        let id = try self.string(fields["id"], "\(path).id", "the device's id (as the device protocol names it)")
        var phone = true
        switch fields["phone"] {
        case nil, .null?: break
        case .bool(let flag)? where id != nil: phone = flag
        case .bool?: throw self.error("\(path).phone", "needs the device's id: apps registered without a device are no device")
        default: throw self.error("\(path).phone", "is true (the emulator's own phone while nothing is attached) or false")
        }
        let power = fields["power"].flatMap { $0 == .null ? nil : $0 }
        if let power {
            guard id != nil else {
                throw self.error("\(path).power", "needs the device's id: apps registered without a device have no power state")
            }
            do {
                _ = try DevicePower.Change(power)
            } catch {
                throw self.error("\(path).power", error.message)
            }
        }
        let focus = try self.focus(fields["focus"], id: id, "\(path).focus")
        return SeedDocument.Device(
            id: id, phone: phone, power: power, focus: focus, apps: try self.list(fields["apps"], "\(path).apps", self.app))
    }

    /// A device's Focus, as `PUT /api/v1/devices/<device id>/focus` takes it.
    private func focus(_ value: JSONValue?, id: String?, _ path: String) throws(ServerError) -> Focus? {
        guard let value, value != .null else { return nil }
        guard id != nil else { throw self.error(path, "needs the device's id: apps registered without a device share no Focus") }
        do {
            return try JSONDecoder().decode(FocusDocument.self, from: Data(value.compact)).focus
        } catch {
            throw self.error(path, PhoneRefusal(error).message)
        }
    }

    func app(_ value: JSONValue, _ path: String) throws(ServerError) -> SeedDocument.App {
        let fields = try self.members(value, path, allowed: Self.appFields, what: "topic, token and settings")
        guard let topic = try self.string(fields["topic"], "\(path).topic", "the app's bundle id"), topic.utf8.count <= 255 else {
            throw self.error("\(path).topic", "is the app's bundle id, 1 to 255 bytes")
        }
        var app = SeedDocument.App(topic: topic)
        if let hex = try self.string(fields["token"], "\(path).token", "a device token in hex") {
            guard let token = DeviceToken(hex: hex) else {
                throw self.error("\(path).token", "\(hex) is not a device token (an even number of hex digits, 32 bytes here)")
            }
            app.token = token
        }
        if let hex = try self.string(fields["pushToStartToken"], "\(path).pushToStartToken", "a push-to-start token in hex") {
            guard let token = DeviceToken(hex: hex) else {
                throw self.error("\(path).pushToStartToken", "\(hex) is not a token (an even number of hex digits)")
            }
            app.pushToStartToken = token
        }
        if let name = try self.string(fields["environment"], "\(path).environment", "development or production") {
            guard let environment = APNsEnvironment(name: name) else {
                throw self.error(
                    "\(path).environment",
                    "is development (a debug build; sandbox is taken for it) or production (TestFlight, the App Store), not \(name)"
                )
            }
            app.environment = environment
        }
        app.registeredAt = try self.time(fields["registeredAt"], "\(path).registeredAt")
        app.unregisteredAt = try self.time(fields["unregisteredAt"], "\(path).unregisteredAt")
        switch fields["feedbackRead"] {
        case nil, .null?: break
        case .bool(let read)?: app.feedbackRead = read
        default: throw self.error("\(path).feedbackRead", "is true or false")
        }
        app.settings = try self.mapping(fields["settings"], "\(path).settings")
        app.location = try self.mapping(fields["location"], "\(path).location")
        app.webApp = try self.webApp(fields["webApp"], token: app.token, topic: topic, "\(path).webApp")
        return app
    }

    /// An exported web app's subscription: its token and origin are the app entry's.
    func webApp(_ value: JSONValue?, token: DeviceToken?, topic: String, _ path: String) throws(ServerError) -> WebApp? {
        guard let value, value != .null else { return nil }
        let webApp: WebApp
        do {
            webApp = try JSONDecoder().decode(WebApp.self, from: Data(value.compact))
        } catch {
            throw self.error(path, "is a web app's subscription as export writes it: \(error)")
        }
        guard webApp.token == token?.hex, webApp.origin == topic else {
            throw self.error(path, "belongs to the app entry whose token is its token and whose topic is its origin")
        }
        return webApp
    }

    static let channelFields = [
        "id", "bundleId", "storagePolicy", "pushType", "createdAt", "deletedAt", "published", "message", "environment",
    ]

    /// `{id, bundleId, storagePolicy, pushType, createdAt, deletedAt, published, message,
    /// environment}`: a broadcast channel under its id (a new one is made without), in the
    /// environment it was created in (left out: reached from both).
    func channel(_ value: JSONValue, _ path: String) throws(ServerError) -> BroadcastChannel {
        let fields = try self.members(value, path, allowed: Self.channelFields, what: "id and bundleId")
        guard let id = try self.string(fields["id"], "\(path).id", "the channel's id (base64)"), !id.contains("/") else {
            throw self.error("\(path).id", "is the channel's id as APNs gave it (base64 without /)")
        }
        guard let bundle = try self.string(fields["bundleId"], "\(path).bundleId", "the app's bundle id") else {
            throw self.error(path, "needs bundleId, the app whose channel it is")
        }
        let policy = fields["storagePolicy"]?.number ?? 0
        guard policy == 0 || policy == 1 else {
            throw self.error("\(path).storagePolicy", "is 0 (No Storage) or 1 (Most Recent Message)")
        }
        let pushType = try self.string(fields["pushType"], "\(path).pushType", "LiveActivity") ?? "LiveActivity"
        guard pushType == "LiveActivity" else {
            throw self.error("\(path).pushType", "is LiveActivity, the only kind of channel")
        }
        var channel = BroadcastChannel(
            id: id, bundleID: bundle, configuration: ChannelConfiguration(storagePolicy: Int(policy), pushType: pushType),
            createdAt: try self.time(fields["createdAt"], "\(path).createdAt") ?? 0)
        channel.deletedAt = try self.time(fields["deletedAt"], "\(path).deletedAt")
        channel.published = Int(fields["published"]?.number ?? 0)
        if let name = try self.string(fields["environment"], "\(path).environment", "development or production") {
            guard let environment = APNsEnvironment(name: name) else {
                throw self.error("\(path).environment", "is development (the sandbox) or production, not \(name)")
            }
            channel.environment = environment
        }
        if let message = fields["message"], message != .null {
            do {
                channel.message = try JSONDecoder().decode(StoredBroadcast.self, from: Data(message.compact))
            } catch {
                throw self.error("\(path).message", "is the stored broadcast as an export writes it: \(error)")
            }
        }
        return channel
    }
}
