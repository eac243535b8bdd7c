import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

/// Version 2 of the device protocol: the app on this device schedules, lists and cancels its
/// local notifications, as it would through UserNotifications. Each is answered in order.
extension DeviceSessionHandler {
    func local(_ request: LocalNotificationsRequest) {
        switch request {
        case .schedule(let deviceID, let topic, let document):
            self.schedule(AppInstall(deviceID: deviceID, topic: topic), document: document)
        case .list(let deviceID, let topic):
            let install = AppInstall(deviceID: deviceID, topic: topic)
            do {
                self.answered(.pending(topic: topic, document: Phone.pendingJSON(try self.phone.app(install).pending)))
            } catch {
                self.failed(error, subject: topic)
            }
        case .cancel(let deviceID, let topic, let identifier):
            self.cancel(AppInstall(deviceID: deviceID, topic: topic), identifier)
        }
    }

    private func schedule(_ install: AppInstall, document body: [UInt8]) {
        guard let context = self.context else { return }
        let document: ScheduleDocument
        do {
            document = try RequestDocument.decode(ScheduleDocument.self, from: body, example: ScheduleDocument.example)
        } catch {
            return self.answered(.refused(subject: install.topic, status: 400, message: error.message))
        }
        // A local notification reaches the device through the app's token, as a remote one does;
        // an app that never registered (or was removed) has nowhere to show it.
        do {
            guard try self.phone.token(of: install) != nil else {
                let message =
                    "\(install.topic) holds no token on this device: register the topic first (local notifications are shown through the app's token)"
                return self.answered(.refused(subject: install.topic, status: 409, message: message))
            }
        } catch {
            return self.failed(error, subject: install.topic)
        }
        self.relay.schedule(document, for: install, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success((let request, let evicted)):
                self.answered(.scheduled(topic: install.topic, document: Phone.scheduledJSON(request, evicted: evicted)))
            case .failure(let error):
                self.failed(error, subject: install.topic)
            }
        }
    }

    private func cancel(_ install: AppInstall, _ identifier: String?) {
        guard let context = self.context else { return }
        self.phone.cancel(identifier, for: install, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let removed):
                if let identifier, removed == 0 {
                    self.answered(.refused(subject: install.topic, status: 404, message: "no pending request \(identifier)"))
                } else {
                    self.answered(.cancelled(topic: install.topic, removed: UInt16(clamping: removed)))
                }
            case .failure(let error):
                self.failed(error, subject: install.topic)
            }
        }
    }
}
