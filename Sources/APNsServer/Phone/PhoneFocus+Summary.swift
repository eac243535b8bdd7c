import APNsCore
import APNsDevice
import APNsInspection

/// The Scheduled Summary at its time: when the emulator's clock reaches a summary an app's
/// notifications wait for, the phone presents them together (the half-second timer and every move
/// of the clock look), as iOS shows the summary on the Lock Screen at the time the user chose.
/// Sources: Apple Support, "Schedule a notification summary on iPhone"; WWDC21 "Send
/// communication and Time Sensitive notifications" (the summary's notifications are presented
/// together at the scheduled time, the most relevant featured first).
extension PhoneFocus {
    /// Presents every summary whose time has come: each notification it holds is marked
    /// presented (`summaryPresented`), noted, saved and told to the journal (the inbox's row and
    /// the phone's card change with it).
    func presentDueSummaries() {
        let now = self.clock()
        let due = self.summaries.withLock { summaries -> [AppInstall] in
            let due = summaries.filter { $0.value <= now }.map(\.key)
            for install in due { summaries.removeValue(forKey: install) }
            return due
        }
        for install in due { self.presentSummary(of: install, at: now) }
    }

    /// The earliest summary `app` has notifications waiting for; nil when none waits.
    static func nextSummary(of app: AppModel) -> Int64? {
        app.delivered.lazy.filter { !$0.presentation.summaryPresented }.compactMap(\.presentation.summaryAt).min()
    }

    private func presentSummary(of install: AppInstall, at now: Int64) {
        do {
            try self.apps.preload(install)
        } catch {
            self.logger.warning(
                "could not present a Scheduled Summary", metadata: ["app": "\(install)", "store.error": "\(error)"])
            return
        }
        let presented = self.apps.withLock { apps -> [(uniqueID: String, presentation: Presentation)] in
            let before = PhoneApps.cached(install, &apps)
            var after = before
            var presented: [(uniqueID: String, presentation: Presentation)] = []
            for index in after.delivered.indices {
                var presentation = after.delivered[index].presentation
                guard let at = presentation.summaryAt, at <= now, !presentation.summaryPresented else { continue }
                presentation.summaryPresented = true
                presentation.notes.append("presented in the Scheduled Summary of \(Timestamp.rfc3339(millis: at))")
                after.delivered[index].presentation = presentation
                presented.append((after.delivered[index].uniqueID, presentation))
            }
            // A later summary the app's notifications wait for stays watched.
            if let next = Self.nextSummary(of: after) {
                self.awaitSummary(of: install, at: next)
            }
            guard !presented.isEmpty else { return [] }
            apps.models[install] = after
            for item in presented { self.ledger.update(item.uniqueID, presentation: item.presentation) }
            self.apps.save(AppChange(install: install, from: before, to: after)) { _ in }
            return presented
        }
        for item in presented { self.journal.presented(uniqueID: item.uniqueID, item.presentation) }
        if !presented.isEmpty {
            self.logger.debug(
                "presented a Scheduled Summary", metadata: ["app": "\(install)", "notifications": "\(presented.count)"])
        }
    }
}
