// aclcpu-explore: runs a host program under many device schedules and stops
// at the first run that behaves differently from the default one -- the way to
// find, and then replay, a missing stream synchronisation (an event nobody
// records or waits for) that the default schedule happens to hide.
//
// acl-cpu orders the work of a device's streams as ACLCPU_SCHEDULE says:
// `fifo` (the default), `random:SEED` or `adversarial:SEED`; a seed gives the
// same interleaving on every run.  The explorer runs the program once under
// `fifo`, the reference, then under each policy and each seed, and compares
// every run's exit status and stdout with the reference's, byte for byte.
// With --race every run has the race checker on (ACLCPU_CHECK=race,
// ACLCPU_CHECK_FATAL=0) and a race report on its stderr is a divergence too;
// a run that outlives --timeout is killed with its process group and is one.
// At the first divergence it prints what differed and a shell command that
// replays the run.  It does not link the runtime: plain POSIX, any program.
//
// Exit status: 0  every run matched the reference
//              1  a run diverged, or the reference run itself timed out or
//                 (with --race) reported a race
//              2  a usage error, a program that cannot be started, or a
//                 failed system call
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

constexpr int kAllRunsMatched = 0;
constexpr int kDiverged = 1;
constexpr int kCannotExplore = 2;

constexpr const char* kUsage =
    "usage: aclcpu-explore [OPTIONS] -- PROGRAM [ARGS...]\n"
    "Runs PROGRAM with ACLCPU_SCHEDULE=fifo (the reference), then with POLICY:SEED for each\n"
    "policy and seed, and stops at the first run whose exit status or stdout differs.\n"
    "  --seeds N          seeds per policy (default 20)\n"
    "  --first-seed S     the first seed (default 1)\n"
    "  --policy P         random, adversarial or both (default both)\n"
    "  --seed S           replays one run: seed S of --policy random or adversarial\n"
    "  --race             race checker on (ACLCPU_CHECK=race); a race report diverges too\n"
    "  --timeout SECONDS  a run taking longer is killed and diverges (default 120)\n"
    "  --quiet            no progress line per run\n"
    "  --help             this text\n"
    "Exit status: 0 no run diverged, 1 a run diverged, 2 usage error or PROGRAM cannot start.\n";

/// What the first line of each of the race checker's data race reports starts with.
constexpr const char* kRaceReportMarker = "acl-cpu: data race";
/// At most this many lines of a race report or of a run's stderr are shown.
constexpr size_t kShownLines = 20;
constexpr const char* kReferenceSchedule = "fifo";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_errno(const std::string& call) {
    throw std::system_error(errno, std::generic_category(), call);
}

// ---- options ---------------------------------------------------------------

struct Options {
    bool help = false;
    std::vector<std::string> policies{"random", "adversarial"};
    uint64_t firstSeed = 1;
    uint64_t seedCount = 20;
    bool race = false;
    unsigned timeoutSeconds = 120;  // alarm() takes unsigned seconds.
    bool quiet = false;
    std::vector<std::string> command;  // PROGRAM [ARGS...]
};

/// The options before "--", each with its value ("" for a flag), and the
/// program's command line after it.
struct CommandLine {
    std::map<std::string, std::string> options;
    std::vector<std::string> command;

    bool has(const std::string& option) const { return options.count(option) != 0; }
    std::optional<std::string> value(const std::string& option) const {
        const auto found = options.find(option);
        return found == options.end() ? std::nullopt : std::optional<std::string>(found->second);
    }
};

CommandLine split_command_line(int argc, char** argv) {
    static const char* const flags[] = {"--race", "--quiet", "--help"};
    static const char* const valued[] = {"--seeds", "--policy", "--first-seed", "--seed", "--timeout"};
    const auto is_one_of = [](const std::string& option, const auto& names) {
        return std::find(std::begin(names), std::end(names), option) != std::end(names);
    };
    CommandLine line;
    int i = 1;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        const std::string option = argv[i];
        if (is_one_of(option, flags)) {
            line.options[option] = "";
        } else if (option.rfind("-", 0) != 0) {
            throw UsageError("unexpected '" + option + "': the program and its arguments come after --");
        } else if (!is_one_of(option, valued)) {
            throw UsageError("unknown option '" + option + "'");
        } else if (i + 1 == argc || std::strcmp(argv[i + 1], "--") == 0) {
            throw UsageError(option + " needs a value");
        } else {
            line.options[option] = argv[++i];
        }
    }
    line.command.assign(argv + std::min(i + 1, argc), argv + argc);
    return line;
}

/// `text` as a decimal in [min, max], strictly: digits only, no sign, no
/// spaces, no overflow.
uint64_t parse_number(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || value < min || value > max) {
        throw UsageError(option + " takes a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", not '" + text + "'");
    }
    return value;
}

std::vector<std::string> parse_policy(const std::string& text) {
    if (text == "both") return {"random", "adversarial"};
    if (text == "random" || text == "adversarial") return {text};
    throw UsageError("--policy takes random, adversarial or both, not '" + text + "'");
}

/// --seed S stands for the one run --first-seed S --seeds 1 of one policy.
void apply_replay_seed(const CommandLine& line, const std::string& seed, Options& options) {
    if (line.has("--seeds") || line.has("--first-seed")) {
        throw UsageError("--seed replays one run: it takes no --seeds or --first-seed");
    }
    if (options.policies.size() != 1) throw UsageError("--seed needs --policy random or --policy adversarial");
    options.firstSeed = parse_number("--seed", seed, 0, std::numeric_limits<uint64_t>::max());
    options.seedCount = 1;
}

void apply_seed_range(const CommandLine& line, Options& options) {
    constexpr uint64_t kLargestSeed = std::numeric_limits<uint64_t>::max();
    if (const auto first = line.value("--first-seed")) {
        options.firstSeed = parse_number("--first-seed", *first, 0, kLargestSeed);
    }
    if (const auto count = line.value("--seeds")) options.seedCount = parse_number("--seeds", *count, 1, kLargestSeed);
    if (options.seedCount - 1 > kLargestSeed - options.firstSeed) {
        throw UsageError("--seeds " + std::to_string(options.seedCount) + " from seed " +
                         std::to_string(options.firstSeed) + " runs past the largest seed, " +
                         std::to_string(kLargestSeed));
    }
}

Options parse_options(int argc, char** argv) {
    const CommandLine line = split_command_line(argc, argv);
    Options options;
    options.help = line.has("--help");
    if (options.help) return options;
    if (line.command.empty()) throw UsageError("no program to explore: give it after --");
    options.command = line.command;
    options.race = line.has("--race");
    options.quiet = line.has("--quiet");
    if (const auto policy = line.value("--policy")) options.policies = parse_policy(*policy);
    if (const auto timeout = line.value("--timeout")) {
        options.timeoutSeconds =
            static_cast<unsigned>(parse_number("--timeout", *timeout, 1, std::numeric_limits<unsigned>::max()));
    }
    if (const auto seed = line.value("--seed")) {
        apply_replay_seed(line, *seed, options);
    } else {
        apply_seed_range(line, options);
    }
    return options;
}

// ---- running the program ---------------------------------------------------

/// NAME=VALUE pairs a run adds to the explorer's environment, in the order
/// the replay command shows them.
using Environment = std::vector<std::pair<std::string, std::string>>;

Environment run_environment(const std::string& schedule, bool race) {
    Environment variables{{"ACLCPU_SCHEDULE", schedule}};
    if (race) {
        variables.emplace_back("ACLCPU_CHECK", "race");
        // Not fatal: the run goes on after a report, so its exit status and
        // stdout still compare, and the reference run can finish at all.
        variables.emplace_back("ACLCPU_CHECK_FATAL", "0");
    }
    return variables;
}

/// How a run ended and what it printed.
struct RunOutcome {
    enum class End { exited, killed, timed_out };
    End end = End::exited;
    int code = 0;  // The exit status, or the signal that killed the run.
    std::string out;
    std::string err;
};

/// A file descriptor closed when its owner goes: an error leaks no pipe.
class UniqueFd {
public:
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    int get() const { return fd_; }
    void reset(int fd = -1) {
        if (fd_ >= 0) close(fd_);
        fd_ = fd;
    }

private:
    int fd_;
};

struct Pipe {
    UniqueFd readEnd;
    UniqueFd writeEnd;
};

Pipe make_pipe() {
    int ends[2];
    // Close-on-exec: no run inherits another run's pipes, and the exec-status
    // pipe closes by itself when exec succeeds.
    if (pipe2(ends, O_CLOEXEC) != 0) throw_errno("pipe2");
    return Pipe{UniqueFd(ends[0]), UniqueFd(ends[1])};
}

/// In the forked child: becomes a process group of its own, so that a
/// timeout kills whatever the program starts too; reads stdin from /dev/null,
/// as a run must not consume the terminal's input; writes stdout and stderr
/// into the pipes and execs the program.  When exec fails, sends its errno
/// through `execStatus` and exits 127, as a shell does for a command it
/// cannot run.
[[noreturn]] void exec_program(const std::vector<std::string>& command, const Environment& environment, int stdoutFd,
                               int stderrFd, int execStatus) {
    setpgid(0, 0);
    const int devNull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull >= 0) dup2(devNull, STDIN_FILENO);
    dup2(stdoutFd, STDOUT_FILENO);
    dup2(stderrFd, STDERR_FILENO);
    // The explorer is single-threaded, so the child may allocate before exec.
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t sent = write(execStatus, &error, sizeof error);  // Nothing to do if it fails.
    _exit(127);
}

/// The process group of the run in progress (0 between runs) and whether its
/// timeout expired, shared with the signal handlers.
volatile std::sig_atomic_t runningGroup = 0;
volatile std::sig_atomic_t runTimedOut = 0;

void on_timeout(int) {
    runTimedOut = 1;
    if (runningGroup != 0) kill(-runningGroup, SIGKILL);
}

/// Ctrl-C reaches the explorer's process group, not the run's: the handler
/// kills the run, then lets the signal end the explorer as its caller expects.
void on_interrupt(int signal) {
    if (runningGroup != 0) kill(-runningGroup, SIGKILL);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void install_signal_handlers() {
    struct sigaction action {};
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a blocked poll or wait returns (EINTR) when the timeout
    // expires, so the run's loops notice it at once.
    action.sa_handler = on_timeout;
    sigaction(SIGALRM, &action, nullptr);
    action.sa_handler = on_interrupt;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

/// Arms the timeout against a run's process group for as long as it lives,
/// unless stopped; a run abandoned by an error is killed, not left behind.
class RunTimeout {
public:
    RunTimeout(pid_t group, unsigned seconds) {
        runTimedOut = 0;
        runningGroup = group;
        alarm(seconds);
    }
    ~RunTimeout() {
        if (runningGroup != 0) kill(-runningGroup, SIGKILL);
        stop();
    }
    RunTimeout(const RunTimeout&) = delete;
    RunTimeout& operator=(const RunTimeout&) = delete;

    void stop() {
        alarm(0);
        runningGroup = 0;
    }
    bool expired() const { return runTimedOut != 0; }
};

/// Exec's errno when the child could not exec the program, else 0: the
/// exec-status pipe closes empty when exec succeeds.
int exec_error(int execStatus) {
    int error = 0;
    ssize_t received;
    do {
        received = read(execStatus, &error, sizeof error);
    } while (received < 0 && errno == EINTR);
    return received == static_cast<ssize_t>(sizeof error) ? error : 0;
}

/// Appends what `fd` has to `text`; false at its end.
bool read_available(int fd, std::string& text) {
    char buffer[4096];
    ssize_t received;
    do {
        received = read(fd, buffer, sizeof buffer);
    } while (received < 0 && errno == EINTR);
    if (received < 0) throw_errno("read");
    text.append(buffer, static_cast<size_t>(received));
    return received > 0;
}

/// Reads the run's stdout and stderr until both close (the program and all
/// it started have exited) or the timeout expires.
void capture_output(int stdoutFd, int stderrFd, const RunTimeout& timeout, RunOutcome& run) {
    pollfd streams[] = {{stdoutFd, POLLIN, 0}, {stderrFd, POLLIN, 0}};
    std::string* texts[] = {&run.out, &run.err};
    int openStreams = 2;
    while (openStreams > 0 && !timeout.expired()) {
        if (poll(streams, 2, -1) < 0) {
            if (errno == EINTR) continue;
            throw_errno("poll");
        }
        for (int i = 0; i < 2; ++i) {
            if (streams[i].revents == 0 || read_available(streams[i].fd, *texts[i])) continue;
            streams[i].fd = -1;  // poll skips it from now on.
            --openStreams;
        }
    }
}

/// Waits for the run's process to end and reaps it.  The timeout stays armed
/// until the process has ended and is stopped before it is reaped: until
/// then its pid, the group the timeout kills, cannot be reused.
void wait_for_end(pid_t pid, RunTimeout& timeout, RunOutcome& run) {
    siginfo_t ending{};
    while (waitid(P_PID, static_cast<id_t>(pid), &ending, WEXITED | WNOWAIT) != 0) {
        if (errno != EINTR) throw_errno("waitid");
    }
    timeout.stop();
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    if (timeout.expired()) {
        run.end = RunOutcome::End::timed_out;
    } else {
        run.end = ending.si_code == CLD_EXITED ? RunOutcome::End::exited : RunOutcome::End::killed;
        run.code = ending.si_status;
    }
}

/// Runs the program once with `environment` added to the explorer's own;
/// throws when it cannot be started.
RunOutcome run_program(const std::vector<std::string>& command, const Environment& environment,
                       unsigned timeoutSeconds) {
    Pipe out = make_pipe();
    Pipe err = make_pipe();
    Pipe execStatus = make_pipe();
    const pid_t pid = fork();
    if (pid < 0) throw_errno("fork");
    if (pid == 0) exec_program(command, environment, out.writeEnd.get(), err.writeEnd.get(), execStatus.writeEnd.get());
    // The child sets its group too: whichever runs first, the group exists
    // before either relies on it.
    setpgid(pid, pid);
    RunTimeout timeout(pid, timeoutSeconds);
    out.writeEnd.reset();
    err.writeEnd.reset();
    execStatus.writeEnd.reset();
    RunOutcome run;
    if (const int error = exec_error(execStatus.readEnd.get())) {
        wait_for_end(pid, timeout, run);
        throw std::system_error(error, std::generic_category(), "cannot start '" + command[0] + "'");
    }
    capture_output(out.readEnd.get(), err.readEnd.get(), timeout, run);
    wait_for_end(pid, timeout, run);
    return run;
}

// ---- comparing runs --------------------------------------------------------

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    for (size_t start = 0; start < text.size();) {
        const size_t newline = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, newline - start));
        start = newline + 1;
    }
    return lines;
}

std::string join(const std::vector<std::string>& lines, const std::string& separator) {
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : separator) + line;
    return text;
}

std::string indented(const std::vector<std::string>& lines) {
    return lines.empty() ? "" : "    " + join(lines, "\n    ");
}

std::string describe_end(const RunOutcome& run, unsigned timeoutSeconds) {
    switch (run.end) {
        case RunOutcome::End::exited: return "exit status " + std::to_string(run.code);
        case RunOutcome::End::killed:
            return "killed by signal " + std::to_string(run.code) + " (" + strsignal(run.code) + ")";
        case RunOutcome::End::timed_out: return "timed out after " + std::to_string(timeoutSeconds) + " s (killed)";
    }
    return "";
}

/// Line `number` (from 0) of `lines`, or what stands in for it when the
/// output ends before it.
std::string line_or_end(const std::vector<std::string>& lines, size_t number) {
    return number < lines.size() ? lines[number] : "(no such line: the output ends before it)";
}

/// Where two different stdouts part: the first differing line, both versions.
std::string stdout_difference(const std::string& referenceOut, const std::string& runOut, const std::string& schedule) {
    const std::vector<std::string> referenceLines = split_lines(referenceOut);
    const std::vector<std::string> runLines = split_lines(runOut);
    size_t line = 0;
    while (line < referenceLines.size() && line < runLines.size() && referenceLines[line] == runLines[line]) ++line;
    if (line == referenceLines.size() && line == runLines.size()) {
        return "stdout has the same lines but differs in its final newline";
    }
    const size_t width = std::max(schedule.size(), std::strlen(kReferenceSchedule)) + 2;
    const auto labelled = [width](const std::string& label, const std::string& text) {
        return (label + ":").append(width - label.size() - 1, ' ') + text;
    };
    return "stdout differs at line " + std::to_string(line + 1) + ":\n" +
           indented({labelled(kReferenceSchedule, line_or_end(referenceLines, line)),
                     labelled(schedule, line_or_end(runLines, line))});
}

/// The stderr lines from the first race report on, at most kShownLines;
/// none when there is no report.
std::vector<std::string> race_report(const std::string& err) {
    const size_t marker = err.find(kRaceReportMarker);
    if (marker == std::string::npos) return {};
    const size_t newlineBefore = err.rfind('\n', marker);
    const size_t lineStart = newlineBefore == std::string::npos ? 0 : newlineBefore + 1;
    std::vector<std::string> lines = split_lines(err.substr(lineStart));
    if (lines.size() > kShownLines) lines.resize(kShownLines);
    return lines;
}

std::string race_finding(const std::vector<std::string>& report) {
    return "the race checker reports a data race:\n" + indented(report);
}

/// What makes the reference run unusable to compare with: a timeout, or with
/// --race a race report, which the checker makes whatever the schedule.
std::vector<std::string> reference_problems(const RunOutcome& reference, const Options& options) {
    if (reference.end == RunOutcome::End::timed_out) return {describe_end(reference, options.timeoutSeconds)};
    const std::vector<std::string> report = options.race ? race_report(reference.err) : std::vector<std::string>();
    if (report.empty()) return {};
    return {race_finding(report)};
}

/// The ways a run differs from the reference, one paragraph each; none when
/// it matches.
std::vector<std::string> divergences(const RunOutcome& reference, const RunOutcome& run, const std::string& schedule,
                                     const Options& options) {
    if (run.end == RunOutcome::End::timed_out) return {describe_end(run, options.timeoutSeconds)};
    std::vector<std::string> found;
    if (run.end != reference.end || run.code != reference.code) {
        found.push_back("the run ends differently: " + describe_end(reference, options.timeoutSeconds) + " under " +
                        kReferenceSchedule + ", " + describe_end(run, options.timeoutSeconds) + " under " + schedule);
    }
    if (run.out != reference.out) found.push_back(stdout_difference(reference.out, run.out, schedule));
    const std::vector<std::string> report = options.race ? race_report(run.err) : std::vector<std::string>();
    if (!report.empty()) found.push_back(race_finding(report));
    return found;
}

// ---- reporting -------------------------------------------------------------

/// `word` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else single-quoted.
std::string shell_quote(const std::string& word) {
    static const char* const plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+:,./-";
    if (!word.empty() && word.find_first_not_of(plain) == std::string::npos) return word;
    std::string quoted = "'";
    for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string replay_command(const Environment& environment, const std::vector<std::string>& command) {
    std::vector<std::string> words;
    for (const auto& [name, value] : environment) words.push_back(name + "=" + shell_quote(value));
    for (const std::string& word : command) words.push_back(shell_quote(word));
    return join(words, " ");
}

std::vector<std::string> last_lines(const std::string& text, size_t count) {
    std::vector<std::string> lines = split_lines(text);
    if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
    return lines;
}

/// Prints a finding about the run under `schedule`: what is wrong, how to
/// replay the run, and the end of its stderr.
void print_finding(const std::string& heading, const std::vector<std::string>& findings, const std::string& schedule,
                   const RunOutcome& run, const Options& options) {
    std::cout << "aclcpu-explore: " << heading << ":\n";
    for (const std::string& finding : findings) std::cout << "  " << finding << "\n";
    std::cout << "  schedule: ACLCPU_SCHEDULE=" << schedule << "\n"
              << "  replay:   " << replay_command(run_environment(schedule, options.race), options.command) << "\n";
    const std::vector<std::string> tail = last_lines(run.err, kShownLines);
    if (tail.empty()) {
        std::cout << "  its stderr is empty\n";
    } else {
        std::cout << "  the end of its stderr:\n" << indented(tail) << "\n";
    }
}

std::string seed_range(const Options& options) {
    const uint64_t last = options.firstSeed + (options.seedCount - 1);
    if (options.seedCount == 1) return "seed " + std::to_string(last);
    return "seeds " + std::to_string(options.firstSeed) + ".." + std::to_string(last);
}

void print_summary(const Options& options) {
    const uint64_t runs = options.seedCount * options.policies.size();
    std::cout << "aclcpu-explore: no divergence: " << runs << (runs == 1 ? " run" : " runs") << " ("
              << join(options.policies, " and ") << ", " << seed_range(options) << ") matched the reference ("
              << kReferenceSchedule << ")" << std::endl;
}

// ---- exploring -------------------------------------------------------------

/// Runs the program under `schedule`, with a progress line unless --quiet.
RunOutcome run_under(const std::string& schedule, const Options& options) {
    RunOutcome run = run_program(options.command, run_environment(schedule, options.race), options.timeoutSeconds);
    if (!options.quiet) std::cout << schedule << ": " << describe_end(run, options.timeoutSeconds) << std::endl;
    return run;
}

/// Prints why the reference run cannot be compared with, if it cannot.
bool reference_unusable(const RunOutcome& reference, const Options& options) {
    const std::vector<std::string> problems = reference_problems(reference, options);
    if (problems.empty()) return false;
    const std::string heading = std::string("the reference run (") + kReferenceSchedule + ") fails by itself";
    print_finding(heading + ": nothing to compare with", problems, kReferenceSchedule, reference, options);
    return true;
}

/// Runs the program with `policy` and `seed`; prints how it diverges from
/// the reference, if it does.
bool diverges(const RunOutcome& reference, const std::string& policy, uint64_t seed, const Options& options) {
    const std::string schedule = policy + ":" + std::to_string(seed);
    const RunOutcome run = run_under(schedule, options);
    const std::vector<std::string> found = divergences(reference, run, schedule, options);
    if (found.empty()) return false;
    const std::string heading = policy + " seed " + std::to_string(seed) + " diverges from the reference";
    print_finding(heading + " (" + kReferenceSchedule + ")", found, schedule, run, options);
    return true;
}

int explore(const Options& options) {
    const RunOutcome reference = run_under(kReferenceSchedule, options);
    if (reference_unusable(reference, options)) return kDiverged;
    for (const std::string& policy : options.policies) {
        for (uint64_t i = 0; i < options.seedCount; ++i) {
            if (diverges(reference, policy, options.firstSeed + i, options)) return kDiverged;
        }
    }
    print_summary(options);
    return kAllRunsMatched;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse_options(argc, argv);
        if (options.help) {
            std::cout << kUsage;
            return kAllRunsMatched;
        }
        install_signal_handlers();
        return explore(options);
    } catch (const UsageError& error) {
        std::cerr << "aclcpu-explore: " << error.what() << "\n" << kUsage;
        return kCannotExplore;
    } catch (const std::exception& error) {
        std::cerr << "aclcpu-explore: " << error.what() << "\n";
        return kCannotExplore;
    }
}
