import Dispatch
import IMockCommon
import IMockCore
import IMockHarness
import Synchronization

/// `imock soak`: runs the soak and prints its report. Exit 0 when it passes, 1 when it fails
/// or cannot run, 64 for bad usage.
enum SoakCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(SoakOptions.spec.help)
            return 0
        }
        let options: SoakOptions
        do {
            options = try SoakOptions.parse(arguments, environment: environment)
        } catch {
            StandardError.write("imock soak: \(error)\nRun 'imock soak --help' for the options.")
            return UsageError.exitCode
        }
        let outcome = Mutex<Result<SoakReport, SoakFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let configuration = options.configuration
        Task {
            let result: Result<SoakReport, SoakFailure>
            do throws(SoakFailure) {
                result = .success(try await SoakRun.run(configuration) { StandardError.write($0) })
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let report):
            print(options.json ? report.json.encodedString : report.text)
            return report.passed ? 0 : 1
        case .failure(let error):
            StandardError.write("imock soak: \(error)")
            return 1
        case nil:
            return 1
        }
    }
}
