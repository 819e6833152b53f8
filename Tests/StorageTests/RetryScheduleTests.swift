import Storage
import Testing

/// Backoff with injected time: one line per rule.
@Suite struct RetryScheduleTests {
    @Test func delaysDoubleUpToTheCapThenItGivesUp() {
        var schedule = RetrySchedule(maxAttempts: 6, baseDelay: 0.5, maxDelay: 3)
        #expect(schedule.failed(retryable: true, now: 100) == .retry(at: 100.5))
        #expect(schedule.failed(retryable: true, now: 101) == .retry(at: 102))
        #expect(schedule.failed(retryable: true, now: 102) == .retry(at: 104))
        #expect(schedule.failed(retryable: true, now: 104) == .retry(at: 107))
        #expect(schedule.failed(retryable: true, now: 107) == .retry(at: 110))
        #expect(schedule.failed(retryable: true, now: 110) == .giveUp)
    }

    @Test func anErrorRetriesCannotFixIsNotRetried() {
        var schedule = RetrySchedule()
        #expect(schedule.failed(retryable: false, now: 0) == .giveUp)
    }

    @Test func successStartsAfresh() {
        var schedule = RetrySchedule(maxAttempts: 2, baseDelay: 1, maxDelay: 8)
        #expect(schedule.failed(retryable: true, now: 0) == .retry(at: 1))
        schedule.succeeded()
        #expect(schedule.failed(retryable: true, now: 5) == .retry(at: 6))
        #expect(schedule.failed(retryable: true, now: 6) == .giveUp)
    }

    @Test func whichErrorsAreWorthRetrying() {
        #expect(StorageError.transport("PUT", "Connection refused").isRetryable)
        #expect(StorageError.server("PUT", status: 503, code: "SlowDown", message: "").isRetryable)
        #expect(StorageError.server("PUT", status: 400, code: "BadDigest", message: "").isRetryable)
        #expect(!StorageError.server("PUT", status: 403, code: "SignatureDoesNotMatch", message: "").isRetryable)
        #expect(!StorageError.server("PUT", status: 404, code: "NoSuchBucket", message: "").isRetryable)
        #expect(StorageError.server("PUT s3://b/k", status: 403, code: "InvalidAccessKeyId", message: "no such key").description
            == "PUT s3://b/k: the server answered 403 InvalidAccessKeyId: no such key")
    }
}
