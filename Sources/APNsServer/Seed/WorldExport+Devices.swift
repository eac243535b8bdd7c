import APNsCore
import APNsDevice
import APNsInspection

extension WorldExport {
    /// Every token the store knows, by device (those registered without one together, without
    /// an id), each with its app's settings and location; each device's power when not the
    /// default.
    func exportedDevices() throws -> [JSONValue] {
        let records = try self.reader.tokens().records.filter { !$0.topic.isEmpty }
        let unread = Set(try self.reader.feedback().map(\.token))
        var order: [String?] = []
        var apps: [String?: [JSONValue]] = [:]
        for record in records.sorted(by: { ($0.registeredAt, $0.token.hex) < ($1.registeredAt, $1.token.hex) }) {
            if apps[record.deviceID] == nil { order.append(record.deviceID) }
            apps[record.deviceID, default: []].append(try self.exportedApp(record, feedbackRead: !unread.contains(record.token)))
        }
        return order.map { id in
            var device: [String: JSONValue] = ["apps": .array(apps[id] ?? [])]
            if let id {
                device["id"] = .string(id)
                // A device that attaches over the device protocol is not the emulator's own phone.
                if !self.phone.ownDevices.owns(device: id) { device["phone"] = .bool(false) }
                if let focus = self.phone.focus.activeFocus(of: id) {
                    device["focus"] = .object([
                        "active": .string(focus.name), "allowedApps": .array(focus.allowedApps.map(JSONValue.string)),
                        "timeSensitive": .bool(focus.timeSensitive),
                        "filters": .object(focus.filters.mapValues { .array($0.map(JSONValue.string)) }),
                        "allowedPeople": .array(focus.allowedPeople.map(JSONValue.string)),
                    ])
                }
                let power = self.power.power(of: id)
                if power != DevicePower() {
                    device["power"] = .object([
                        "online": .bool(power.online), "lowPowerMode": .bool(power.lowPowerMode), "locked": .bool(power.locked),
                    ])
                }
            }
            return .object(device)
        }
    }

    private func exportedApp(_ record: TokenRecord, feedbackRead: Bool) throws -> JSONValue {
        var app: [String: JSONValue] = [
            "topic": .string(record.topic), "token": .string(record.token.hex),
            "registeredAt": .string(Timestamp.rfc3339(millis: record.registeredAt)),
            "environment": .string(record.environment.rawValue),
        ]
        if let unregistered = record.unregisteredAt {
            app["unregisteredAt"] = .string(Timestamp.rfc3339(millis: unregistered))
            app["feedbackRead"] = .bool(feedbackRead)
        }
        // A Live Activity token's record is ActivityKit's: its app's settings are under the app's own token.
        guard !record.topic.hasSuffix(LiveActivities.activityTopicSuffix),
            let install = try self.phone.apps.install(of: record.token)
        else { return .object(app) }
        let model = try self.phone.apps.app(install)
        if let pushToStart = model.pushToStartToken { app["pushToStartToken"] = .string(pushToStart) }
        // A web app's subscription, with the private key the emulated browser opens its pushes with.
        if let webApp = model.webApp, let value = JSONValue.parse(Array(PhoneJSON.encoded(webApp).utf8)) { app["webApp"] = value }
        guard model != AppModel() else { return .object(app) }
        guard
            case .object(let document)? = JSONValue.parse(
                PhoneJSON.app(model, token: record.token.hex, topic: install.topic, deviceID: install.deviceID))
        else { return .object(app) }
        var settings = document.filter { Self.settingsFields.contains($0.key) }
        // A budget the app chose; one that follows the platform is left to follow it.
        if model.widgetPushes.chosen == true { settings["widgetPushBudget"] = .number(Double(model.widgetPushes.perDay)) }
        if model.controlPushes.chosen == true { settings["controlPushBudget"] = .number(Double(model.controlPushes.perDay)) }
        app["settings"] = .object(settings)
        if let location = document["location"], location != .null { app["location"] = location }
        return .object(app)
    }
}
