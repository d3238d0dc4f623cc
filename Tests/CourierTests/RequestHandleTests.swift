import Courier
import Foundation
import Testing

@Suite("Completion handlers and their handles")
struct RequestHandleTests {
    @Test("a cancelled operation reports cancelled, never a success")
    func cancelBeforeFinish() async {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int, CourierError>, Never>) in
            let handle = RequestHandle.start(
                {
                    try? await Task.sleep(for: .seconds(5))
                    return 42
                }, completion: { continuation.resume(returning: $0) })
            handle.cancel()
            #expect(handle.isCancelled)
        }
        guard case .failure(let error) = result else {
            Issue.record("a cancelled operation delivered \(result)")
            return
        }
        #expect(error.kind == .cancelled)
    }

    @Test("a finished operation delivers its value once; cancelling afterwards changes nothing")
    func cancelAfterFinish() async {
        let (handle, result) = await withCheckedContinuation { (continuation: CheckedContinuation<(RequestHandle?, Result<Int, CourierError>), Never>) in
            _ = RequestHandle.start({ 7 }, completion: { continuation.resume(returning: (nil, $0)) })
        }
        handle?.cancel()
        #expect((try? result.get()) == 7)
    }

    @Test("an operation's error arrives as a CourierError")
    func errorsAreCourierErrors() async {
        struct Odd: Error {}
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int, CourierError>, Never>) in
            RequestHandle.start({ throw CourierError(.forbidden, message: "nope") }, completion: { continuation.resume(returning: $0) })
        }
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .forbidden)
    }
}
