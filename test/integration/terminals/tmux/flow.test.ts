// tmux flow control on a shared server: a view that never acknowledges holds its own agent (which
// really stops writing) and nothing else; three other sessions start, resize and re-attach as usual
// meanwhile, and the held agent goes on once the view catches up.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import type { ManagedTerminal } from '../../../../main/terminals/managed-terminal.js';
import type { Terminal } from '../../../../main/terminals/terminal.js';
import { tmuxSessionName } from '../../../../main/terminals/tmux/pane-format.js';
import { TmuxBackend } from '../../../../main/terminals/tmux/tmux-backend.js';
import { collect, RecordingView, tempDir, testEnv, testSocketName, waitFor } from '../../../support/fixtures/terminals/harness.js';

const backend = new TmuxBackend({ socketName: testSocketName('flow') });
const tmp = tempDir('tmux-flow');
const live: Terminal[] = [];
afterAll(async () => {
  for (const t of live) await t.kill().catch(() => undefined);
  await backend.server.killServer();
  tmp.cleanup();
});

/** Bytes the process has written so far (all of it to the pane: the flood writes nothing else). */
const written = (pid: number): number => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);

/** Rejects when `p` takes longer than `ms`: an operation held up behind the lagging view. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  const late = new Promise<never>((_resolve, reject) => {
    setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref();
  });
  return Promise.race([p, late]);
}

async function start(command: string, args: string[]): Promise<{ id: string; t: Terminal }> {
  const id = randomUUID();
  const r = await within(backend.spawn({ id, command, args, cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null }), 15_000, 'spawn');
  if (!r.ok) throw new Error(r.message);
  live.push(r.value);
  return { id, t: r.value };
}

/** A session goes through a normal life: start, resize (seen by the program), re-attach, answer input. */
async function ordinarySession(n: number): Promise<void> {
  const { id, t } = await start('sh', ['-c', 'stty size; read x; stty size; read y; echo "answer:$y"; read z']);
  const out = collect(t);
  await waitFor(() => out.text().includes('24 80'), `session ${n}'s first size`);
  t.resize(100, 30);
  t.write('\r');
  await waitFor(() => out.text().includes('30 100'), `session ${n}'s new size in the program`);
  await within(t.dispose(), 15_000, 'dispose');
  live.splice(live.indexOf(t), 1);
  const again = await within(backend.reattach(id, { transcriptDir: null }), 15_000, 're-attach');
  if (!again.ok) throw new Error(again.message);
  live.push(again.value);
  const after = collect(again.value);
  again.value.write(`still-${n}\r`);
  await waitFor(() => after.text().includes(`answer:still-${n}`), `session ${n} to answer after its re-attach`);
}

it('holds only the agent whose view does not ack; every other session carries on', async () => {
  const flood = 'import sys\ni = 0\nwhile True:\n    i += 1\n    sys.stdout.write("%09d flow control flood line\\n" % i)';
  const { t } = await start('python3', ['-c', flood]);
  const view = new RecordingView(80, 24, false);
  view.attachment = t.attach(view);
  await waitFor(() => (t as ManagedTerminal).paused, 'flow control to hold the flood');
  // The person resizes the window while the view lags: every terminal gets the new size.
  t.resize(120, 40);

  // The hold takes effect within moments: from then on the agent writes nothing.
  const heldAt = await stopsWriting(t.pid, 'the held agent to stop writing');

  await Promise.all([1, 2, 3].map(ordinarySession));
  // Really held: the agent wrote nothing more all this time.
  await new Promise((r) => setTimeout(r, 500));
  expect(written(t.pid) - heldAt, 'bytes the held agent wrote while the others worked').toBe(0);

  // The view catches up and keeps up: the agent goes on.
  let acked = 0;
  const keepUp = setInterval(() => {
    view.attachment?.ack(view.outputChars - acked);
    acked = view.outputChars;
  }, 20);
  try {
    await waitFor(() => written(t.pid) > heldAt + 1_000_000, 'the agent to write again');
  } finally {
    clearInterval(keepUp);
  }
});

/** Waits until the process has written nothing for a moment; resolves with what it wrote. */
async function stopsWriting(pid: number, what: string): Promise<number> {
  let before = -1;
  return waitFor(async () => {
    const now = written(pid);
    const still = now === before;
    before = now;
    await new Promise((r) => setTimeout(r, 300));
    return still ? now : 0;
  }, what);
}

it('lets a held agent go on when the process holding it dies', async () => {
  const flood = 'import sys\ni = 0\nwhile True:\n    i += 1\n    sys.stdout.write("%09d owner dies while holding\\n" % i)';
  const { id, t } = await start('python3', ['-c', flood]);
  const view = new RecordingView(80, 24, false);
  view.attachment = t.attach(view);
  await waitFor(() => (t as ManagedTerminal).paused, 'flow control to hold the flood');
  const heldAt = await stopsWriting(t.pid, 'the held agent to stop writing');
  // The owner dies as a crashed app does: its control client goes with it.
  const client = execFileSync('pgrep', ['-f', '--', `-C attach-session -t =${tmuxSessionName(id)}`], { encoding: 'utf8' }).trim();
  process.kill(Number(client), 'SIGKILL');
  await waitFor(() => written(t.pid) > heldAt + 1_000_000, 'the agent to write again without its owner');
});
