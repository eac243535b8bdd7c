import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import Foundation
import NIOCore

extension SeedDocument {
    /// What has to be in place before the emulator is made: its keys in the key store, its
    /// certificate authorities in a file the provider listeners trust (in the data directory).
    public func prepare(_ configuration: inout EmulatorConfiguration) throws {
        for key in self.keys { try ProviderKeyStore.register(key, in: configuration.keysDirectory) }
        guard !self.certificates.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("seed-provider-ca.pem").path
        try self.certificates.joined().write(toFile: path, atomically: true, encoding: .utf8)
        if !configuration.providerCAPaths.contains(path) { configuration.providerCAPaths.append(path) }
    }
}

extension Emulator {
    /// Makes the world `seed` describes (after ``SeedDocument/prepare(_:)`` and before ``run()``,
    /// so it is there before the first listener opens): the clock, fault rules, broadcast
    /// settings and channels, then each device's tokens, apps' settings, locations and power,
    /// through the phone operations the admin API calls, with their checks. The first refusal
    /// throws, naming where it came from.
    public func apply(_ seed: SeedDocument, origin: String) async throws {
        if seed.clockOffset > self.clock.offsetMillis {
            _ = self.clock.advance(by: seed.clockOffset - self.clock.offsetMillis)
        }
        for fault in seed.faults {
            let document = fault.document
            if let id = fault.id {
                var rule = FaultRule(
                    id: id, match: document.match, action: document.action, times: document.times,
                    probability: document.probability)
                rule.hits = fault.hits
                self.inspection.faults.restore(rule)
            } else {
                self.inspection.faults.add(
                    match: document.match, action: document.action, times: document.times, probability: document.probability)
            }
        }
        // The relay and the channels take their changes on an event loop.
        let loop = self.group.next()
        let channels = self.parts.channels
        for bundle in seed.broadcastDisabled {
            _ = try await loop.flatSubmit { channels.setEnabled(bundle, false, on: loop) }.get()
        }
        for var channel in seed.channels {
            if channel.createdAt == 0 { channel.createdAt = self.clock.nowMillis }
            _ = try await loop.flatSubmit { [channel] in channels.adopt(channel, on: loop) { _ in } }.get()
        }
        for (index, device) in seed.devices.enumerated() {
            try await self.apply(device, origin: "\(origin): devices[\(index)]", on: loop)
        }
    }

    private func apply(_ device: SeedDocument.Device, origin: String, on loop: any EventLoop) async throws {
        // A device the seed declares is the emulator's own phone while no device is attached.
        if let id = device.id, device.phone { self.parts.phone.adopt(device: id) }
        for (index, app) in device.apps.enumerated() {
            let place = "\(origin).apps[\(index)]"
            let token = app.token ?? self.parts.ids.newToken()
            let record = TokenRecord(
                token: token, topic: app.topic, deviceID: device.id, registeredAt: app.registeredAt ?? self.clock.nowMillis,
                unregisteredAt: app.unregisteredAt, environment: app.environment ?? self.configuration.environment)
            let (relay, phone) = (self.relay, self.parts.phone)
            _ = try await loop.flatSubmit { relay.submit(.restoreToken(record, feedbackRead: app.feedbackRead), on: loop) }.get()
            // A Live Activity token's pushes are ActivityKit's, whoever holds the device.
            if !app.topic.hasSuffix(LiveActivities.activityTopicSuffix) { phone.ownDevices.issued(token, to: device.id) }
            // The build on the device: the tokens ActivityKit issues the app belong to its environment.
            if let environment = app.environment, device.id != nil, let install = try phone.apps.install(of: token) {
                _ = try await loop.flatSubmit {
                    phone.apps.change(install, on: loop) { (model: inout AppModel) in model.environment = environment }
                }.get()
            }
            if let webApp = app.webApp, let install = try phone.apps.install(of: token) {
                _ = try await loop.flatSubmit {
                    phone.apps.change(install, on: loop) { (model: inout AppModel) in model.webApp = webApp }
                }
                .get()
            }
            if let pushToStart = app.pushToStartToken, let install = try phone.apps.install(of: token) {
                _ = try await loop.flatSubmit {
                    phone.apps.change(install, on: loop) { (model: inout AppModel) in model.pushToStartToken = pushToStart.hex }
                }.get()
            }
            guard app.settings != nil || app.location != nil else { continue }
            guard let install = try phone.apps.install(of: token) else {
                throw ServerError(.badConfiguration, subject: place, "token \(token.hex) did not register")
            }
            try await self.applySettings(of: app, to: install, place: place, on: loop)
        }
        if let id = device.id, let focus = device.focus {
            // The same operation as the admin API's PUT .../focus.
            let operations = FocusOperations(focus: self.parts.phone.focus)
            _ = try await loop.flatSubmit { operations.set(id, focus, on: loop) }.get()
        }
        if let id = device.id, let power = device.power {
            let change: DevicePower.Change
            do {
                change = try DevicePower.Change(power)
            } catch {
                throw ServerError(.badConfiguration, subject: origin + ".power", error.message)
            }
            _ = PowerOperations(power: self.parts.power, hub: self.parts.hub, relay: self.relay).change(id, change)
        }
    }

    /// Runs one step of a seed; a refusal throws naming where in the seed it came from and why.
    /// An app's settings and location: the same operations, with the same checks, as the admin
    /// API's PUT .../app and POST .../location; the seed reads its own document, as every door does.
    private func applySettings(
        of app: SeedDocument.App, to install: AppInstall, place: String, on loop: any EventLoop
    ) async throws {
        let (relay, phone) = (self.relay, self.parts.phone)
        if let settings = app.settings {
            try await Self.seeding(place + ".settings") {
                let update = try AppOperations.readUpdate(settings.compact)
                try await loop.flatSubmit {
                    AppOperations(phone: phone).update(install, update, by: .user, on: loop).map { _ in }
                }.get()
            }
        }
        if let location = app.location {
            try await Self.seeding(place + ".location") {
                let point = try LocalOperations.readLocation(location.compact)
                try await loop.flatSubmit {
                    LocalOperations(phone: phone, relay: relay).move(install, to: point, on: loop).map { _ in }
                }.get()
            }
        }
    }

    private static func seeding(_ origin: String, _ step: () async throws -> Void) async throws {
        do {
            try await step()
        } catch {
            throw ServerError(.badConfiguration, subject: origin, PhoneRefusal(error).message)
        }
    }
}
