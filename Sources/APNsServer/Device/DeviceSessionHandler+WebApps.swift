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
    /// `{"id": …}` and what an action adds to it.
    private struct WebAppTarget: Decodable {
        var id: String
        var permission: String?
    }

    func webApp(deviceID: String, action: String, document: [UInt8]) {
        guard let context = self.context, let action = WebAppAction(rawValue: action) else { return }
        let eventLoop = context.eventLoop
        switch action {
        case .list:
            var writer = JSONWriter()
            writer.array(self.phone.webApps(on: deviceID)) { writer, webApp in writer.raw(self.phone.json(webApp)) }
            self.answered(.webApp(document: writer.bytes))
        case .subscribe:
            guard let request = self.webAppDocument(WebAppDocument.self, document, example: WebAppDocument.example) else {
                return
            }
            let host = Phone.WebAppHost(hostToken: "", hostInstall: nil, deviceID: deviceID)
            self.phone.subscribeWebApp(host, request, on: eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success(let webApp):
                    guard let token = DeviceToken(hex: webApp.token) else { return }
                    if let subscriber = self.subscriber, self.power.online { self.relay.subscribe(token, subscriber) }
                    let answer = DeviceServerMessage.webApp(document: self.phone.json(webApp))
                    self.perform(self.machine.subscribed(webApp: token, topic: webApp.origin, answer: answer))
                    self.answerWaiting()
                case .failure(let error):
                    self.failed(error, subject: DeviceServerMessage.webAppSubject)
                }
            }
        case .unsubscribe, .permission, .show:
            guard let target = self.webAppDocument(WebAppTarget.self, document, example: #"{"id": "<web app id>", …}"#) else {
                return
            }
            guard self.phone.webApps(on: deviceID).contains(where: { $0.id == target.id }) else {
                return self.answered(
                    .refused(
                        subject: DeviceServerMessage.webAppSubject, status: 404, message: "no web app \(target.id) on this device"
                    ))
            }
            self.change(target, action, document, on: eventLoop)
        }
    }

    private func change(_ target: WebAppTarget, _ action: WebAppAction, _ document: [UInt8], on eventLoop: any EventLoop) {
        let done: EventLoopFuture<[UInt8]>
        let phone = self.phone
        switch action {
        case .permission:
            guard let permission = target.permission.flatMap(WebApp.Permission.init(rawValue:)) else {
                return self.answered(
                    .refused(
                        subject: DeviceServerMessage.webAppSubject, status: 400,
                        message: "permission is granted, denied or default"))
            }
            done = phone.setWebAppPermission(target.id, permission, on: eventLoop).map { phone.json($0.0) }
        case .show:
            guard
                let show = self.webAppDocument(
                    WebAppShowDocument.self, Self.withoutID(document), example: WebAppShowDocument.example)
            else { return }
            done = phone.showWebNotification(target.id, show, on: eventLoop).map { Phone.json($0) }
        default:
            done = phone.unsubscribeWebApp(target.id, on: eventLoop).map { phone.json($0.0) }
        }
        done.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let body): self.answered(.webApp(document: body))
            case .failure(let error): self.failed(error, subject: DeviceServerMessage.webAppSubject)
            }
        }
    }

    /// Decodes a `web-app` document; a bad one is refused (400) and nil returned.
    private func webAppDocument<T: Decodable>(_ type: T.Type, _ document: [UInt8], example: String) -> T? {
        do {
            return try RequestDocument.decode(T.self, from: document, example: example)
        } catch {
            self.answered(.refused(subject: DeviceServerMessage.webAppSubject, status: 400, message: error.message))
            return nil
        }
    }

    /// A show document without its `id`, which the show document does not take.
    static func withoutID(_ document: [UInt8]) -> [UInt8] {
        guard case .object(var members)? = JSONValue.parse(document) else { return document }
        members["id"] = nil
        return JSONValue.object(members).compact
    }
}
