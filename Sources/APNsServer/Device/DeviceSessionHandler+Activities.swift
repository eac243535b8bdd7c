import APNsCore
import APNsDevice
import APNsInspection
import APNsWire
import Foundation
import NIOCore

/// Version 3 of the device protocol: the app declares its Live Activity types, starts, ends and
/// lists its activities, as it would through ActivityKit. Each is answered in order.
extension DeviceSessionHandler {
    func activities(deviceID: String, _ message: DeviceClientMessage) {
        switch message {
        case .declareActivities(let topic, let document):
            self.declareActivities(AppInstall(deviceID: deviceID, topic: topic), document)
        case .startActivity(let topic, let document):
            self.runActivity(.start, document, AppInstall(deviceID: deviceID, topic: topic))
        case .endActivity(let topic, let id, let document):
            self.runActivity(.end(id), document, AppInstall(deviceID: deviceID, topic: topic))
        case .listActivities(let topic):
            let install = AppInstall(deviceID: deviceID, topic: topic)
            do {
                let app = try self.phone.app(install)
                self.answered(
                    .activities(
                        topic: topic,
                        document: ActivityJSON.list(
                            app.orderedActivities, topic: topic, deviceID: deviceID, pushToStartToken: app.pushToStartToken,
                            app: app)))
            } catch {
                self.failed(error, subject: topic)
            }
        default: break
        }
    }

    private func declareActivities(_ install: AppInstall, _ document: [UInt8]) {
        guard let context = self.context else { return }
        var update = AppUpdate()
        do {
            update.activityTypes = try RequestDocument.decode(
                [String: ActivityType].self, from: document,
                example: #"{"Delivery": {"attributes": {"order": "int"}, "contentState": {"eta": "date"}}}"#)
            try update.validate()
        } catch {
            return self.answered(.refused(subject: install.topic, status: 400, message: "\(error)"))
        }
        self.phone.update(install, with: update, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let app): self.answered(.app(topic: install.topic, document: Phone.json(app)))
            case .failure(let error): self.failed(error, subject: install.topic)
            }
        }
    }

    /// Runs the app's request. The device hears the tokens and changes as for any other (they
    /// go out first); the answer is the activity concerned, as `activities` with one item.
    private func runActivity(_ kind: Phone.ActivityAppRequest, _ document: [UInt8], _ install: AppInstall) {
        guard let context = self.context else { return }
        self.phone.activityRequest(kind, document: document, in: install, on: context.eventLoop).assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success((let report, let app)):
                    let concerned = app.activities.filter { $0.id == report.activityID }
                    self.answered(
                        .activities(
                            topic: install.topic,
                            document: ActivityJSON.list(
                                concerned, topic: install.topic, deviceID: install.deviceID,
                                pushToStartToken: app.pushToStartToken, app: app)))
                case .failure(let error as DeviceModelError):
                    self.answered(
                        .refused(subject: install.topic, status: error.code == .refused ? 409 : 400, message: error.message))
                case .failure(let error):
                    self.failed(error, subject: install.topic)
                }
            }
    }
}
