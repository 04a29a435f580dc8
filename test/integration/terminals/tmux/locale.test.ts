// A supervisor started without a UTF-8 locale (`env -i`, `LANG=C`) still sees its tmux panes: tmux
// prints a tab in a `-F` format as `_` to a client that does not speak UTF-8, which would turn every
// pane line into one unparsable field. This process's locale variables are removed for the whole
// file, so the tmux server and every client Mori starts run without them, as such a daemon's do.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Terminal } from '../../../../main/terminals/terminal.js';
import { TmuxBackend } from '../../../../main/terminals/tmux/tmux-backend.js';
import { collect, tempDir, testEnv, testSocketName, waitFor } from '../../../support/fixtures/terminals/harness.js';

const LOCALE = /^(LANG|LANGUAGE|LC_[A-Z_]+)$/;
const saved = Object.entries(process.env).filter(([k]) => LOCALE.test(k));
const backend = new TmuxBackend({ socketName: testSocketName('locale') });
const tmp = tempDir('tmux-locale');
let terminal: Terminal | null = null;

beforeAll(() => {
  for (const [k] of saved) delete process.env[k];
});
afterAll(async () => {
  await terminal?.kill();
  await backend.server.killServer();
  for (const [k, v] of saved) process.env[k] = v;
  tmp.cleanup();
});

it('starts and lists panes with no locale in the environment', async () => {
  expect(Object.keys(process.env).filter((k) => LOCALE.test(k))).toEqual([]);
  const id = randomUUID();
  const started = await backend.spawn({ id, command: 'sh', args: ['-c', 'echo ready; exec sleep 60'], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null });
  if (!started.ok) throw new Error(started.message);
  terminal = started.value;
  const output = collect(terminal);
  await waitFor(() => output.text().includes('ready'), 'the program to start');
  const listed = await backend.list();
  expect(listed).toEqual([expect.objectContaining({ id, pid: terminal.pid, alive: true, exit: null, size: { cols: 80, rows: 24 } })]);
  expect(await backend.isAlive(id)).toBe(true);
});
