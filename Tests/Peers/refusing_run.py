"""A `revue` that refuses every job asked to join its run, for the worker's fallback test.

Usage: refusing_run.py REVUE ARGS...  (the worker's `executable`: it runs `REVUE ARGS...` as is)

A run refuses a job that asks to join it only when the job's composite differs from the run's
or an output cannot be opened there, which the worker's own check makes rare; this stands
between the worker and a real run and refuses every `{"attach": …}` line on the run's behalf,
answering with the lines a refusing run writes on its report pipe (descriptor 3): the job's
`outputFailed` and `detached`. Every other line, and everything the run reports, passes through.
The spec's `parentPID` (the worker, whose death the run watches for) becomes this process's.
"""

import json
import os
import signal
import subprocess
import sys
import threading


def main():
    spec_path = sys.argv[sys.argv.index("--spec") + 1]
    with open(spec_path) as file:
        spec = json.load(file)
    if "parentPID" in spec:
        spec["parentPID"] = os.getpid()
        with open(spec_path, "w") as file:
            json.dump(spec, file)
    report = os.fdopen(3, "wb", buffering=0)
    report_lock = threading.Lock()
    read_end, write_end = os.pipe()

    def in_the_run():
        # Its descriptor 3 is the write end of a pipe this process reads (dup2 makes it
        # inheritable; every other descriptor of this process closes on exec).
        os.dup2(write_end, 3)

    run = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, close_fds=False, preexec_fn=in_the_run)
    os.close(write_end)

    def write_report(line):
        with report_lock:
            report.write(line)

    def pass_reports():
        with os.fdopen(read_end, "rb") as reports:
            for line in reports:
                write_report(line)

    def pass_commands():
        for line in sys.stdin.buffer:
            try:
                command = json.loads(line)
            except ValueError:
                command = None
            if isinstance(command, dict) and "attach" in command:
                job = (command["attach"].get("job") or {}).get("id", "")
                for event in ({"event": "outputFailed", "output": "run", "error": "refused by the test's run", "job": job},
                              {"event": "detached", "job": job}):
                    write_report(json.dumps(event).encode() + b"\n")
                continue
            run.stdin.write(line)
            run.stdin.flush()
        run.stdin.close()

    reports = threading.Thread(target=pass_reports, daemon=True)
    reports.start()
    threading.Thread(target=pass_commands, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: run.send_signal(signal.SIGTERM))
    signal.signal(signal.SIGINT, lambda *_: run.send_signal(signal.SIGINT))
    code = run.wait()
    # The run's last reports (its last progress, an output failing as it stopped) pass first:
    # the pipe ends once the run has.
    reports.join()
    # Not sys.exit: the threads still reading would make the interpreter's shutdown abort.
    os._exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
