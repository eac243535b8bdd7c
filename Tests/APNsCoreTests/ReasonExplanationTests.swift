import APNsCore
import Testing

@Suite("Reason explanations")
struct ReasonExplanationTests {
    @Test("every documented reason explains itself for people; the explanation is not part of a reason's identity")
    func explained() {
        for reason in Reason.all {
            #expect(reason.explanation.count > 10, "\(reason.wire)")
        }
        #expect(Reason(wire: "BadPriority", status: 400) == .badPriority)
        #expect(Set([Reason(wire: "BadPriority", status: 400), .badPriority]).count == 1)
    }
}
