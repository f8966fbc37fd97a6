/**
 * Runs an async task one call at a time, in call order: each run starts after the run before it has settled
 * (resolved or failed). For sends whose later call must win — a slow run reading older state must never post after
 * a run that read newer state.
 *
 * @param task the work of one run; a failure reaches that run's caller only, and the next run still starts.
 * @returns a function that queues one run and resolves (or rejects) when that run has settled.
 */
export function inOrder(task: () => Promise<void>): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => {
    last = last.then(task, task);
    return last;
  };
}
