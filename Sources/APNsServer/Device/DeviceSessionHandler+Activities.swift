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
        guard let context = self.context else { return }
        let operations = ActivityOperations(phone: self.phone)
        let eventLoop = context.eventLoop
        switch message {
        case .declareActivities(let topic, let document):
            let install = AppInstall(deviceID: deviceID, topic: topic)
            let types: [String: ActivityType]
            do {
                types = try ActivityOperations.readTypes(document)
            } catch {
                return self.failed(error, subject: topic)
            }
            operations.declare(types, in: install, on: eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success(let app): self.answered(.app(topic: topic, document: Phone.json(app)))
                case .failure(let error): self.failed(error, subject: topic)
                }
            }
        case .startActivity(let topic, let document):
            do {
                self.runActivity(
                    try ActivityOperations.readStart(document), AppInstall(deviceID: deviceID, topic: topic), operations)
            } catch {
                self.failed(error, subject: topic)
            }
        case .endActivity(let topic, let id, let document):
            do {
                self.runActivity(
                    try ActivityOperations.readEnd(id, document), AppInstall(deviceID: deviceID, topic: topic), operations)
            } catch {
                self.failed(error, subject: topic)
            }
        case .listActivities(let topic):
            switch operations.list(AppInstall(deviceID: deviceID, topic: topic)) {
            case .success(let document): self.answered(.activities(topic: topic, document: document))
            case .failure(let refusal): self.failed(refusal, subject: topic)
            }
        default: break
        }
    }

    /// Runs the app's request. The device hears the tokens and changes as for any other (they
    /// go out first); the answer is the activity concerned, as `activities` with one item.
    private func runActivity(
        _ request: LiveActivities.ActivityAppRequest, _ install: AppInstall, _ operations: ActivityOperations
    ) {
        guard let context = self.context else { return }
        operations.request(request, in: install, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let concerned): self.answered(.activities(topic: install.topic, document: concerned.list))
            case .failure(let error): self.failed(error, subject: install.topic)
            }
        }
    }
}
