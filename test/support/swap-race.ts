// Starts test/support/swap-race.py: two directory entries exchanged atomically in a loop, the symlink race an attacker
// with write access to the upload folder runs. Used by the upload tests (unit and e2e).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** A running swap loop; `stop` ends it (SIGTERM) and waits for it to exit. */
export interface SwapRace {
  stop(): Promise<void>;
}

/** Starts exchanging `a` and `b` continuously (at most `seconds`), resolving once the loop runs. */
export async function startSwapRace(a: string, b: string, seconds = 120): Promise<SwapRace> {
  const child = spawn('python3', [path.join(import.meta.dirname, 'swap-race.py'), a, b, String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([once(lines, 'line'), exited.then(() => ['exited'])])) as string[];
  if (first !== 'swapping') throw new Error('the swap loop did not start (python3 with renameat2 is needed)');
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
