import fs from 'node:fs';

// An exclusive lock between the processes of one machine, held as a file created with O_EXCL that names its holder's
// pid: one of the processes sharing a search snapshot fetches a newer one, the others wait and then find it there
// (src/search/sharedSnapshot.ts). A lock whose holder has died is taken over.

const POLL_MS = 100;

function holderAlive(lock: string): boolean {
  try {
    const text = fs.readFileSync(lock, 'utf8');
    // Made and not yet written: its maker is alive.
    if (!text) return true;
    const pid = Number(text);
    if (!(pid > 0)) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // ESRCH: no such process. ENOENT: released meanwhile (try again); EPERM: another user's process, alive.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Runs `f` holding `lock`; after `waitMs` waiting for another holder, runs it anyway (a lock must not stop a fetch). */
export async function withFileLock<T>(lock: string, f: () => Promise<T>, waitMs = 15 * 60_000): Promise<T> {
  const until = Date.now() + waitMs;
  let held = false;
  while (!held && Date.now() < until) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      held = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!holderAlive(lock)) fs.rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    return await f();
  } finally {
    if (held) fs.rmSync(lock, { force: true });
  }
}
