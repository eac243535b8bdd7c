import Testing

@testable import APNsServer

/// The phone's order of locks (``LockRank``) is enforced, not only written in a comment: each
/// lock records its rank on the thread while held, and a lock of a lower or equal rank may not
/// be taken inside it (debug builds stop the process there, so every test run checks the order).
@Suite("Lock order")
struct LockOrderTests {
    @Test("a thread holding a lock may take only a lock of a higher rank")
    func ranks() {
        #expect(LockRank.apps.mayBeTaken(holding: nil))
        #expect(LockRank.index.mayBeTaken(holding: .apps))
        #expect(LockRank.leaf.mayBeTaken(holding: .index))
        #expect(!LockRank.apps.mayBeTaken(holding: .index))
        #expect(!LockRank.index.mayBeTaken(holding: .index))
        #expect(!LockRank.apps.mayBeTaken(holding: .apps))
    }

    #if DEBUG
    @Test("the rank held is the innermost lock's while it is held, and what it was once released")
    func heldRank() {
        let apps = RankedMutex(.apps, 0)
        let index = RankedMutex(.index, 0)
        #expect(LockRank.held == nil)
        apps.withLock { _ in
            #expect(LockRank.held == .apps)
            index.withLock { _ in #expect(LockRank.held == .index) }
            #expect(LockRank.held == .apps)
        }
        #expect(LockRank.held == nil)
    }
    #endif
}
