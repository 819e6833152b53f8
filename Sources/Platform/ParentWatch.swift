import CLinux
import Glibc

/// Ties a child process to its parent: when the parent dies (even by SIGKILL), the kernel
/// kills the child, so a job never keeps running under a worker that lost it.
public enum ParentWatch {
    /// Asks for SIGKILL when the parent dies, then checks the parent is still `expected` (it
    /// may have died before the request): exits at once if not.
    public static func dieWithParent(expected: pid_t) {
        _ = revue_set_parent_death_signal(SIGKILL)
        if getppid() != expected { _exit(1) }
    }
}
