import { readFile } from 'node:fs/promises';

/** Whether process `pid` runs: a zombie, left for a parent that does not reap it, has stopped. */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}
