// The upload tool's file access (broker/mcp/files.ts, folder-open.ts) on real files: what is read and what is refused,
// the symlink race run against it, FIFOs that must not stall the hub, and the one-at-a-time bound on file work.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toErrorData } from '../../shared/errors.js';
import { inUploadSlot, readUploadFiles, type UploadFileData } from '../../broker/mcp/files.js';
import { openFolder, type FolderOpenMethod, type FolderOpenOptions } from '../../broker/mcp/folder-open.js';
import { startSwapRace } from '../support/swap-race.js';

let tmp: string;
let folder: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-upload-'));
  folder = path.join(tmp, 'uploads');
  mkdirSync(path.join(folder, 'sub'), { recursive: true });
  writeFileSync(path.join(folder, 'note.txt'), 'hello');
  writeFileSync(path.join(folder, 'sub', 'data.json'), '{"a":1}');
  writeFileSync(path.join(tmp, 'secret.txt'), 'private');
  symlinkSync(path.join(tmp, 'secret.txt'), path.join(folder, 'out-link.txt'));
  symlinkSync('note.txt', path.join(folder, 'in-link.txt'));
  symlinkSync('sub', path.join(folder, 'sub-link'));
  // A hard link inside the folder to a file outside it: the same file under a second name.
  linkSync(path.join(tmp, 'secret.txt'), path.join(folder, 'hard-link.txt'));
  execFileSync('mkfifo', [path.join(folder, 'pipe')]);
  writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(800 * 1024));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The error code `promise` fails with, or 'ok'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (err) => toErrorData(err).code,
  );
}
const text = (files: UploadFileData[]) => files.map((f) => Buffer.from(f.data, 'base64').toString());

describe.each<FolderOpenMethod>(['fd-walk', 'top-level'])('upload files opened by %s', (method) => {
  const read = (paths: string[]) => readUploadFiles(folder, paths, { open: { method } });

  it('reads regular files named relative to the folder, or by an absolute path inside it', async () => {
    expect(text(await read(['note.txt', './note.txt', path.join(folder, 'note.txt')]))).toEqual(['hello', 'hello', 'hello']);
    expect((await read(['note.txt']))[0]).toMatchObject({ name: 'note.txt', type: 'text/plain' });
  });

  it('refuses what leaves the folder or is a link, whether the link points out or in', async () => {
    for (const p of ['../secret.txt', path.join(tmp, 'secret.txt'), 'sub/../../secret.txt', 'out-link.txt', 'in-link.txt']) {
      expect(await outcome(read([p])), p).toBe('permission_denied');
    }
    const err = await read(['out-link.txt']).catch((e: unknown) => toErrorData(e));
    expect(JSON.stringify(err)).not.toContain(tmp);
  });

  it('refuses a file with more than one hard link, saying why: its other name may be outside the folder', async () => {
    const err = await read(['hard-link.txt']).then(() => undefined, (e: unknown) => toErrorData(e));
    expect(err?.code).toBe('permission_denied');
    expect(err?.message).toContain('hard links');
    expect(JSON.stringify(err)).not.toContain(tmp);
  });

  it('refuses what is not a regular file, and what is missing or too large', async () => {
    expect(await outcome(read(['sub']))).toBe('invalid_argument');
    expect(await outcome(read(['nope.txt']))).toBe('invalid_argument');
    expect(await outcome(read(['.']))).toBe('invalid_argument');
    expect(await outcome(read(['big.bin']))).toBe('too_large');
  });

  it('refuses a FIFO at once, however many uploads name it, and the next upload and file work go on', async () => {
    const started = Date.now();
    const refusals = await Promise.all(Array.from({ length: 8 }, () => outcome(read(['pipe']))));
    expect(refusals).toEqual(Array(8).fill('invalid_argument'));
    // More FIFO opens than libuv has threads (4): had any blocked, this read would wait behind them.
    expect(await readFile(path.join(folder, 'note.txt'), 'utf8')).toBe('hello');
    expect(text(await read(['note.txt']))).toEqual(['hello']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('upload files in subfolders (fd-walk)', () => {
  it('reads a file in a subfolder and refuses a link on the way', async () => {
    expect(text(await readUploadFiles(folder, ['sub/data.json'], { open: { method: 'fd-walk' } }))).toEqual(['{"a":1}']);
    expect(await outcome(readUploadFiles(folder, ['sub-link/data.json'], { open: { method: 'fd-walk' } }))).toBe('permission_denied');
    expect(await outcome(readUploadFiles(folder, ['note.txt/x'], { open: { method: 'fd-walk' } }))).toBe('invalid_argument');
  });

  it('is the method chosen on Linux', async () => {
    // /proc/self/fd is what makes the walk possible; this machine has it.
    const opened = await openFolder(folder);
    expect(opened.method).toBe('fd-walk');
    await opened.close();
    expect(text(await readUploadFiles(folder, ['sub/data.json']))).toEqual(['{"a":1}']);
  });

  it('top-level refuses subfolders, where it could not hold a component still', async () => {
    expect(await outcome(readUploadFiles(folder, ['sub/data.json'], { open: { method: 'top-level' } }))).toBe('invalid_argument');
  });
});

describe('the symlink race (an entry exchanged with a link to outside, continuously)', () => {
  const ROUNDS = 300;

  /** Uploads `p` ROUNDS times while `a` and `b` are exchanged; counts what came back. */
  async function race(a: string, b: string, p: string, open: FolderOpenOptions) {
    const swap = await startSwapRace(a, b, 60);
    const seen = { inside: 0, outside: 0, refused: 0 };
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const got = await readUploadFiles(folder, [p], { open }).then(text, () => undefined);
        if (!got) seen.refused++;
        else if (got[0] === 'private') seen.outside++;
        else seen.inside++;
      }
    } finally {
      await swap.stop();
    }
    return seen;
  }

  it('delivers no file from outside when a folder on the path is swapped for a link (fd-walk)', async () => {
    mkdirSync(path.join(folder, 'race'));
    writeFileSync(path.join(folder, 'race', 'secret.txt'), 'inside');
    symlinkSync(tmp, path.join(folder, 'race-link'));
    const seen = await race(path.join(folder, 'race'), path.join(folder, 'race-link'), 'race/secret.txt', { method: 'fd-walk' });
    expect(seen.outside).toBe(0);
    // The race really ran: some uploads found the link in place and were refused, some found the folder.
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.inside).toBeGreaterThan(0);
  });

  it('delivers no file from outside when the file itself is swapped for a link (top-level, opened as where links cannot be refused)', async () => {
    // Without O_NOFOLLOW (Windows) the open follows the link; the identity check must catch it.
    writeFileSync(path.join(folder, 'swap.txt'), 'inside');
    symlinkSync(path.join(tmp, 'secret.txt'), path.join(folder, 'swap-link.txt'));
    const seen = await race(path.join(folder, 'swap.txt'), path.join(folder, 'swap-link.txt'), 'swap.txt', { method: 'top-level', withoutNoFollow: true });
    expect(seen.outside).toBe(0);
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.inside).toBeGreaterThan(0);
  });
});

describe('one upload\'s file work at a time, bounded in time', () => {
  it('fails a call whose work overruns with timeout, keeps its turn until the work settles, then goes on', async () => {
    let finish!: () => void;
    const stuck = new Promise<string>((resolve) => (finish = () => resolve('late')));
    expect(await outcome(inUploadSlot(() => stuck, 50))).toBe('timeout');
    // The stuck work still holds the turn: the next upload waits, then fails, without running.
    let ran = false;
    expect(await outcome(inUploadSlot(async () => void (ran = true), 50))).toBe('timeout');
    expect(ran).toBe(false);
    finish();
    expect(await inUploadSlot(async () => 'next', 1_000)).toBe('next');
  });

  it('fails with cancelled when the call is cancelled', async () => {
    const abort = new AbortController();
    let finish!: () => void;
    const pending = outcome(inUploadSlot(() => new Promise<void>((resolve) => (finish = resolve)), 10_000, abort.signal));
    abort.abort();
    expect(await pending).toBe('cancelled');
    finish();
  });
});
