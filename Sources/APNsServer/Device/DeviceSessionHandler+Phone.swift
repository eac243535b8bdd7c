import APNsDevice
import APNsStore
import APNsWire
import Foundation
import NIOCore

/// Version 2 of the device protocol: the app asks for authorization and changes its settings,
/// the user responds to notifications. Each is answered in order, like the other requests.
extension DeviceSessionHandler {
    func authorize(_ install: AppInstall, options bits: UInt8, allow: Bool) {
        guard let context = self.context else { return }
        let options = Authorization.Options(rawValue: bits)
        AppOperations(phone: self.phone).requestAuthorization(
            install, options: options, userAllows: allow, on: context.eventLoop
        ).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let answer):
                let saved = answer.authorization
                let status: UInt8 =
                    switch saved.status {
                    case .notDetermined: 0
                    case .denied: 1
                    case .authorized: 2
                    case .provisional: 3
                    case .ephemeral: 4
                    }
                let allowed: Authorization.Options = [
                    saved.alert ? .alert : [], saved.sound ? .sound : [], saved.badge ? .badge : [],
                    saved.criticalAlert ? .criticalAlert : [], saved.status == .provisional ? .provisional : [],
                ]
                self.answered(
                    .authorization(
                        topic: install.topic, status: status, options: allowed.rawValue, granted: answer.granted,
                        prompted: answer.prompted)
                )
            case .failure(let error):
                self.failed(error, subject: install.topic)
            }
        }
    }

    /// The app changes its own settings at launch (categories, state, language...).
    func configure(_ install: AppInstall, document: [UInt8]) {
        guard let context = self.context else { return }
        let update: AppUpdate
        do {
            update = try AppOperations.readUpdate(document)
        } catch {
            return self.failed(error, subject: install.topic)
        }
        AppOperations(phone: self.phone).update(install, update, by: .app, on: context.eventLoop).assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let app): self.answered(.app(topic: install.topic, document: Phone.json(app)))
                case .failure(let error): self.failed(error, subject: install.topic)
                }
            }
    }

    func respond(_ uniqueID: String, action: String, text: String?, context code: UInt8) {
        guard let context = self.context else { return }
        let actionContext: ActionContext? =
            switch code {
            case 1: .banner
            case 2: .alert
            default: nil
            }
        AppOperations(phone: self.phone).respond(
            to: uniqueID, action: action, text: text, context: actionContext, on: context.eventLoop
        ).assumeIsolated().whenComplete { result in
            switch result {
            case .success((_, let response)): self.answered(.response(uniqueID: uniqueID, document: Phone.json(response)))
            case .failure(let error): self.failed(error, subject: uniqueID)
            }
        }
    }

    /// A version-2 request is done: its answer goes out, then what waited behind it.
    func answered(_ answer: DeviceServerMessage) {
        self.perform(self.machine.answered(answer))
        self.answerWaiting()
    }

    /// A refusal the device can act on goes back as `refused`; a store failure ends the session.
    func failed(_ error: any Error, subject: String) {
        let refusal = PhoneRefusal(error)
        if !refusal.unavailable {
            // The device protocol's statuses are HTTP's, as the admin API's (docs/device-protocol.md).
            let status: UInt16 =
                switch refusal.kind {
                case .invalid: 400
                case .notFound: 404
                case .conflict: 409
                case .failedReading, .failedSaving: 500
                }
            self.answered(.refused(subject: subject, status: status, message: refusal.message))
        } else {
            self.logger.warning("the phone could not be changed", metadata: ["device.error": "\(error)"])
            self.perform(self.machine.fail(.internalError, "could not change the app: \(error)"))
            self.answerWaiting()
        }
    }
}
