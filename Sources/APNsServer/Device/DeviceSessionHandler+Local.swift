import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

/// Version 2 of the device protocol: the app on this device schedules, lists and cancels its
/// local notifications, as it would through UserNotifications. Each is answered in order.
extension DeviceSessionHandler {
    func local(_ request: LocalNotificationsRequest) {
        guard let context = self.context else { return }
        let operations = LocalOperations(phone: self.phone, relay: self.relay)
        switch request {
        case .schedule(let deviceID, let topic, let bytes):
            let document: ScheduleDocument
            do {
                document = try LocalOperations.readSchedule(bytes)
            } catch {
                return self.failed(error, subject: topic)
            }
            operations.schedule(document, for: AppInstall(deviceID: deviceID, topic: topic), on: context.eventLoop)
                .assumeIsolated().whenComplete { result in
                    switch result {
                    case .success((let request, let evicted)):
                        self.answered(.scheduled(topic: topic, document: LocalScheduler.scheduledJSON(request, evicted: evicted)))
                    case .failure(let error): self.failed(error, subject: topic)
                    }
                }
        case .list(let deviceID, let topic):
            switch operations.pending(AppInstall(deviceID: deviceID, topic: topic)) {
            case .success(let pending): self.answered(.pending(topic: topic, document: pending))
            case .failure(let refusal): self.failed(refusal, subject: topic)
            }
        case .cancel(let deviceID, let topic, let identifier):
            operations.cancel(identifier, for: AppInstall(deviceID: deviceID, topic: topic), on: context.eventLoop)
                .assumeIsolated().whenComplete { result in
                    switch result {
                    case .success(let removed): self.answered(.cancelled(topic: topic, removed: UInt16(clamping: removed)))
                    case .failure(let error): self.failed(error, subject: topic)
                    }
                }
        }
    }
}
