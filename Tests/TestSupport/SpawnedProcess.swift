import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` in a process group of its own, with every signal
/// unblocked and at its default action, its input a pipe held here and its output in files.
///
/// `Foundation.Process` passes on the signal mask of the thread that starts it, and Swift's
/// threads block most signals, so a server started that way ignores SIGTERM and SIGCHLD. The group
/// lets ``signal(_:)`` reach the children a server forks (gunicorn's worker, danted's, squid's
/// helpers). The child keeps no file descriptor of the test process but its input and output.
final class SpawnedProcess: Sendable {
    /// What `posix_spawn` or `pipe` refused.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The process's id, which is also its group's.
    let pid: pid_t
    /// The write end of its input; closing it is its end of input.
    private let input: Int32
    /// The exit status once the process was reaped, and whether the input is closed.
    private let state = LockedBox<(status: Int32?, inputClosed: Bool)>((nil, false))

    /// Starts `executable`.
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments, without its name.
    ///   - environment: Its whole environment.
    ///   - output: The file its standard output goes to (created or emptied).
    ///   - errors: The file its standard error goes to (created or emptied).
    /// - Throws: ``Failure`` when the pipe or the process cannot be made.
    init(_ executable: URL, _ arguments: [String], environment: [String: String], output: URL, errors: URL) throws {
        var pipeEnds: [Int32] = [-1, -1]
        #if canImport(Glibc)
        // Close-on-exec from the start (a socket pair, since Swift's Glibc has no pipe2): no other
        // child started meanwhile holds the write end open.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pipeEnds) == 0 else { throw Failure(description: "socketpair failed: errno \(errno)") }
        #else
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        #endif
        defer { close(pipeEnds[0]) }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        // Nothing else of the test process: a socket another test has bound (a port it is about to
        // hand to its own server) would stay bound in this child.
        #if canImport(Glibc)
        if let closeFrom = Self.closeFrom {
            _ = closeFrom(&actions, 3)
        } else {
            Self.markEveryDescriptorCloseOnExec()
        }
        let closesOthers: Int32 = 0
        #else
        let closesOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP) | closesOthers))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(pipeEnds[1])
            throw Failure(description: "posix_spawn \(executable.path) failed: errno \(result)")
        }
        self.pid = pid
        self.input = pipeEnds[1]
    }

    #if canImport(Glibc)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Without `closefrom` in the child: every descriptor of the test process from 3 up is marked
    /// close-on-exec, which changes nothing for the test process itself.
    private static func markEveryDescriptorCloseOnExec() {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in descriptors.compactMap({ Int32($0) }) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
    #endif

    /// Whether the process still runs; reaps it once it ended.
    var isRunning: Bool {
        state.mutate { state in
            guard state.status == nil else { return false }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno == ECHILD) {
                state.status = status
                return false
            }
            return true
        }
    }

    /// Sends `signal` to the process's whole group.
    /// - Parameter signal: The signal.
    func signal(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    /// Closes the process's input (once).
    func closeInput() {
        let shouldClose = state.mutate { state in
            defer { state.inputClosed = true }
            return !state.inputClosed
        }
        if shouldClose { _ = close(input) }
    }

    /// Waits until the process ended, looking every 10 ms, at most `bound`.
    /// - Parameter bound: The longest wait.
    /// - Returns: Whether it ended.
    func waitForExit(within bound: Duration) async -> Bool {
        let deadline = ContinuousClock.now + bound
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
