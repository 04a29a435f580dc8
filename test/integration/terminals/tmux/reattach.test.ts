// The tmux backend's reason to exist: the owning process is SIGKILLed while the agent runs, a new
// process re-attaches, finds the earlier output in history, and the agent never noticed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { pidAlive } from '../../../../main/os/pid-alive.js';
import { TmuxBackend } from '../../../../main/terminals/tmux/tmux-backend.js';
import { collect, tempDir, testSocketName, waitFor } from '../../../support/fixtures/terminals/harness.js';

const socketName = testSocketName('reattach');
const backend = new TmuxBackend({ socketName });
const tmp = tempDir('reattach');
afterAll(async () => {
  await backend.server.killServer();
  tmp.cleanup();
});

it('re-attaches after the owner was SIGKILLed; the agent never noticed', async () => {
  const id = 'reattach-test';
  const tickFile = path.join(tmp.dir, 'ticks');
  const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../../support/fixtures/terminals/tmux-owner.ts', import.meta.url)), socketName, id, tickFile, tmp.dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let ownerOut = '';
  owner.stdout.on('data', (d: Buffer) => (ownerOut += d.toString()));
  const agentPid = Number((await waitFor(() => /spawned (\d+)/.exec(ownerOut), 'the owner to start the agent', 20_000))[1]);
  const ticks = (): number => (existsSync(tickFile) ? Number(readFileSync(tickFile, 'utf8')) || 0 : 0);
  await waitFor(() => ticks() >= 3, 'the agent to tick');

  owner.kill('SIGKILL');
  await new Promise((resolve) => owner.once('exit', resolve));
  const atKill = ticks();
  await waitFor(() => ticks() >= atKill + 5, 'the agent to keep ticking without its owner');

  expect(await backend.list()).toEqual(expect.arrayContaining([expect.objectContaining({ id, pid: agentPid, alive: true })]));
  expect(await backend.isAlive(id)).toBe(true);
  const r = await backend.reattach(id, { transcriptDir: null });
  if (!r.ok) throw new Error(r.message);
  const t = r.value;
  expect(t.pid).toBe(agentPid);
  const out = collect(t);
  expect(await t.snapshot()).toContain('before-kill marker');
  // Live output continues where history ends.
  await waitFor(() => /tick \d+/.test(out.text()), 'live ticks after the re-attach');
  t.write('still-here\r');
  await waitFor(() => out.text().includes('got:still-here'), 'the agent to answer input after the re-attach');
  expect(pidAlive(agentPid)).toBe(true);
  expect(existsSync(`${tickFile}.hup`)).toBe(false);
  expect(existsSync(`${tickFile}.eof`)).toBe(false);
  const exit = await t.kill();
  expect(exit.signal ?? exit.code).not.toBeNull();
  await waitFor(() => !pidAlive(agentPid), 'the agent to be gone after kill', 5000);
});
