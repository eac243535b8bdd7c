import APNsCore
import APNsDevice
import APNsInspection
import APNsWire
import Foundation
import NIOCore

/// Version 2's `web-app`: web apps on this device and their Web Push subscriptions. A web app
/// subscribed here is the device's: its pushes come over this connection like a registered
/// token's (stored while the device is offline), and the device resumes its token later.
extension DeviceSessionHandler {
    /// `{"id": …}`: the web app an action is on.
    private struct WebAppTarget: Decodable {
        var id: String
    }

    func webApp(deviceID: String, action: String, document: [UInt8]) {
        guard let context = self.context, let action = WebAppAction(rawValue: action) else { return }
        let eventLoop = context.eventLoop
        let operations = WebAppOperations(webApps: self.phone.webApps)
        switch action {
        case .list:
            self.answered(.webApp(document: self.phone.webApps.json(webApps: operations.list(device: deviceID))))
        case .subscribe:
            let host = PhoneWebApps.WebAppHost(hostToken: "", hostInstall: nil, deviceID: deviceID)
            let request: WebAppDocument
            do {
                request = try WebAppOperations.readSubscription(document)
            } catch {
                return self.failed(error, subject: DeviceServerMessage.webAppSubject)
            }
            operations.subscribe(host, request, on: eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success(let webApp):
                    guard let token = DeviceToken(hex: webApp.token) else { return }
                    if let subscriber = self.subscriber, self.power.online { self.hub.subscribe(token, subscriber) }
                    let answer = DeviceServerMessage.webApp(document: self.phone.webApps.json(webApp))
                    self.perform(self.machine.subscribed(webApp: token, topic: webApp.origin, answer: answer))
                    self.answerWaiting()
                case .failure(let error):
                    self.failed(error, subject: DeviceServerMessage.webAppSubject)
                }
            }
        case .unsubscribe, .permission, .show:
            let target: WebAppTarget
            do {
                target = try RequestDocument.decode(
                    WebAppTarget.self, from: document, example: #"{"id": "<web app id>", …}"#)
            } catch {
                return self.failed(error, subject: DeviceServerMessage.webAppSubject)
            }
            // The rest of the document is the action's own (the admin API's body for it).
            self.changeWebApp(action, target.id, Self.withoutID(document), deviceID: deviceID, operations, on: eventLoop)
        }
    }

    /// `unsubscribe`, `permission` or `show` on the web app `id`, with the action's own document.
    private func changeWebApp(
        _ action: WebAppAction, _ id: String, _ document: [UInt8], deviceID: String, _ operations: WebAppOperations,
        on eventLoop: any EventLoop
    ) {
        let phone = self.phone
        let done: EventLoopFuture<[UInt8]>
        do {
            switch action {
            case .permission:
                done = operations.setPermission(
                    id, try WebAppOperations.readPermission(document), device: deviceID, on: eventLoop
                )
                .map { phone.webApps.json($0) }
            case .show:
                done = operations.show(id, try WebAppOperations.readShow(document), device: deviceID, on: eventLoop)
                    .map { Phone.json($0) }
            default:
                done = operations.unsubscribe(id, device: deviceID, on: eventLoop).map { phone.webApps.json($0) }
            }
        } catch {
            return self.failed(error, subject: DeviceServerMessage.webAppSubject)
        }
        done.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let body): self.answered(.webApp(document: body))
            case .failure(let error): self.failed(error, subject: DeviceServerMessage.webAppSubject)
            }
        }
    }

    /// A document without its `id`, which the action's own document does not take.
    static func withoutID(_ document: [UInt8]) -> [UInt8] {
        guard case .object(var members)? = JSONValue.parse(document) else { return document }
        members["id"] = nil
        return JSONValue.object(members).compact
    }
}
