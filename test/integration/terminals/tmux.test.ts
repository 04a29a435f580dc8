// The tmux backend (control mode, private server) against the terminal contract, plus the exits
// tmux 3.3a makes hard to read: many panes ending at once, while sessions come and go.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { TerminalExit } from '../../../common/terminal.js';
import { TmuxBackend } from '../../../main/terminals/tmux/tmux-backend.js';
import { terminalContract } from '../../support/fixtures/terminals/contract.js';
import { tempDir, testEnv, testSocketName } from '../../support/fixtures/terminals/harness.js';

terminalContract('tmux', async () => {
  const backend = new TmuxBackend({ socketName: testSocketName('contract') });
  const found = await backend.detect();
  if (!found.available) throw new Error(`tmux is required here: ${found.reason}`);
  // tmux reports pane death through a subscription checked once a second.
  return { backend, exitLatencyMs: 1500, cleanup: () => backend.server.killServer() };
});

describe('tmux backend exits under churn', () => {
  const backend = new TmuxBackend({ socketName: testSocketName('churn') });
  const tmp = tempDir('tmux-churn');
  afterAll(async () => {
    await backend.server.killServer();
    tmp.cleanup();
  });

  // Panes ending together race tmux's reaping (a pane reads dead before its status is known, and
  // 3.3a with libutempter can miss the SIGCHLD), and sessions closing while control clients
  // connect crash a 3.3a server: every exit must still come back with its real status.
  it('reads the status of every pane when many end at once, round after round', async () => {
    for (let round = 0; round < 3; round++) {
      const started = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const r = await backend.spawn({ id: randomUUID(), command: 'sh', args: ['-c', `read x; exit ${i + 1}`], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null });
          if (!r.ok) throw new Error(r.message);
          return r.value;
        }),
      );
      const exits = started.map((t) => new Promise<TerminalExit>((resolve) => t.onExit(resolve)));
      for (const t of started) t.write('\r');
      expect(await Promise.all(exits)).toEqual(started.map((_, i) => ({ code: i + 1, signal: null })));
      for (const t of started) await t.dispose();
    }
  });
});

describe('tmux backend server options', () => {
  const backend = new TmuxBackend({ socketName: testSocketName('options') });
  const tmp = tempDir('tmux-options');
  afterAll(async () => {
    await backend.server.killServer();
    tmp.cleanup();
  });

  // Claude Code warns on every start when tmux does not pass focus events through.
  it('passes focus events to the programs', async () => {
    const r = await backend.spawn({ id: randomUUID(), command: 'sh', args: ['-c', 'read x'], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null });
    if (!r.ok) throw new Error(r.message);
    expect((await backend.server.run(['show', '-s', 'focus-events'])).stdout.trim()).toBe('focus-events on');
    await r.value.kill();
    await r.value.dispose();
  });
});
