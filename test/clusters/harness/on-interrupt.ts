// Cleanup on Ctrl-C or a polite kill: cluster processes are detached (their own process groups),
// so a signal to the harness does not reach them; the harness must stop them itself.

/**
 * Until the returned function is called, SIGINT or SIGTERM runs `cleanup` and then exits with
 * the conventional status (130 or 143). Returns the function that removes the handlers.
 */
export function onInterrupt(cleanup: () => Promise<void>, log: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the clusters`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
