// The tmux control client dies with the process that started it. A supervisor SIGKILLed while its
// tmux server could not answer (frozen, busy) left its control client waiting on that server for
// good, a tmux process of Mori's socket with no owner; the kernel's parent-death signal ends it.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TmuxBackend } from '../../../../main/terminals/tmux/tmux-backend.js';
import { tempDir, testSocketName, waitFor } from '../../../support/fixtures/terminals/harness.js';

const socketName = testSocketName('control-client');
const backend = new TmuxBackend({ socketName });
const tmp = tempDir('control-client');
let serverPid = 0;
afterAll(async () => {
  if (serverPid > 0) process.kill(serverPid, 'SIGCONT');
  await backend.server.killServer();
  tmp.cleanup();
});

/** Live (not zombie) processes whose parent is `ppid`, with their command lines. */
function children(ppid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid || fields[0] === 'Z') continue;
      out.push({ pid: Number(e), cmd: readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

it('ends when its owner is SIGKILLed while the tmux server is frozen', async () => {
  const id = 'control-owner';
  const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../../support/fixtures/terminals/tmux-owner.ts', import.meta.url)), socketName, id, path.join(tmp.dir, 'ticks'), tmp.dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  owner.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => /spawned \d+/.test(out), 'the owner to start the agent', 20_000);
  const client = await waitFor(() => children(owner.pid!).find((c) => c.cmd.includes(' -C attach-session')), "the owner's control client");
  serverPid = Number((await backend.server.run(['display-message', '-p', '#{pid}'])).stdout.trim());
  expect(serverPid).toBeGreaterThan(0);

  // The server frozen: the client's end of input is not seen by it, so nothing tells the client to go.
  process.kill(serverPid, 'SIGSTOP');
  owner.kill('SIGKILL');
  await new Promise((resolve) => owner.once('exit', resolve));
  await waitFor(() => !alive(client.pid), `the control client ${client.pid} to end with its owner`, 5_000);
  process.kill(serverPid, 'SIGCONT');
  // The agent itself runs on in its pane: only the owner's client went.
  expect(await backend.isAlive(id)).toBe(true);
}, 40_000);
