// Whether a process with this pid runs on this host: signal 0 checks without sending anything
// (EPERM: it exists, as another user's). Used by the lock and temporary-file recovery.

/** Returns whether the pid names a running process on this host. */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
