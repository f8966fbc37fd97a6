// One session's call queue: calls run one at a time, in arrival order (SPEC §7), with a bounded depth.
import { errorData, OrielError } from '../../shared/errors.js';

/** Most calls that may wait behind the running one on one session. */
export const MAX_QUEUE_DEPTH = 64;

export class SessionQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** Number of calls queued or running. */
  get depth(): number {
    return this.waiting;
  }

  /**
   * Runs `task` after every earlier task has settled. A task whose `signal` aborts while waiting leaves the queue
   * without running.
   * @throws OrielError `busy` (retryable) when {@link MAX_QUEUE_DEPTH} calls already wait; `cancelled` if aborted while
   * queued.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.waiting >= MAX_QUEUE_DEPTH) {
      return Promise.reject(new OrielError(errorData('busy', `This tab is busy: ${MAX_QUEUE_DEPTH} calls are already waiting on it. Nothing was done; wait for earlier calls to finish, then retry.`)));
    }
    this.waiting++;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    return (async () => {
      try {
        await previous;
        signal?.throwIfAborted();
        return await task();
      } finally {
        this.waiting--;
        release();
      }
    })();
  }
}
