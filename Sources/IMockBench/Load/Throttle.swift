/// Starts `total` jobs with at most `window` under way; a job reports its end by calling
/// `done`. Loop-confined (the jobs run on the client loop).
final class Throttle {
    private let total: Int
    private let window: Int
    private let job: (_ index: Int, _ done: @escaping () -> Void) -> Void
    private var started = 0
    private var finished = 0
    private var completion: (() -> Void)?

    init(total: Int, window: Int, job: @escaping (_ index: Int, _ done: @escaping () -> Void) -> Void) {
        self.total = total
        self.window = max(1, window)
        self.job = job
    }

    /// Starts the first jobs; `completion` runs when all `total` have finished.
    func start(completion: @escaping () -> Void) {
        self.completion = completion
        guard total > 0 else {
            finishAll()
            return
        }
        launchMore()
    }

    /// Whether ``launchMore()`` is filling the window: a job that ends while it is being started
    /// (a connect that fails at once, as with the descriptors exhausted) lets that loop start
    /// the next one instead of recursing, which overflowed the stack after some 10,000 of them.
    private var launching = false

    private func launchMore() {
        guard !launching else { return }
        launching = true
        while started < total, started - finished < window { launch() }
        launching = false
    }

    private func launch() {
        let index = started
        started += 1
        var reported = false
        job(index) { [self] in
            guard !reported else { return }
            reported = true
            finished += 1
            if finished == total {
                finishAll()
                return
            }
            launchMore()
        }
    }

    private func finishAll() {
        let completion = self.completion
        self.completion = nil
        completion?()
    }
}
