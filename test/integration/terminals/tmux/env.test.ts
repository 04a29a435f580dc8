// The agent's environment never shows in any process's arguments (`/proc/*/cmdline` is readable by
// every local user): a sampler reads every cmdline in a tight loop for the whole start of a tmux
// session whose environment holds an API key, and never sees it; the agent does get it, exactly.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TmuxBackend } from '../../../../main/terminals/tmux/tmux-backend.js';
import { tempDir, testEnv, testSocketName, waitFor } from '../../../support/fixtures/terminals/harness.js';

const backend = new TmuxBackend({ socketName: testSocketName('env') });
const tmp = tempDir('tmux-env');
afterAll(async () => {
  await backend.server.killServer();
  tmp.cleanup();
});

/**
 * Reads every /proc/<pid>/cmdline over and over until `stopFile` exists, then prints how many
 * sweeps it made and the pids whose arguments held the needle. The needle comes in the sampler's
 * environment, not its arguments.
 */
const SAMPLER = `
const fs = require('node:fs');
const needle = Buffer.from(process.env.NEEDLE);
const hits = new Set();
let sweeps = 0;
process.stdout.write('sampling\\n');
while (!fs.existsSync(process.env.STOP_FILE)) {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      if (fs.readFileSync('/proc/' + name + '/cmdline').includes(needle)) hits.add(name);
    } catch {}
  }
  sweeps++;
}
process.stdout.write(JSON.stringify({ sweeps, hits: [...hits] }) + '\\n');
`;

it('starts a session whose API key reaches the agent and no process argument', async () => {
  const secret = `sk-test-${randomBytes(16).toString('hex')}`;
  // Quoting that a command line could get wrong: quotes, $, ~, #{}, ;, a newline, UTF-8.
  const awkward = `a "b" 'c' $HOME ~ \\ #{pane_id}; d\ne é`;
  const seen = path.join(tmp.dir, 'seen');
  const stopFile = path.join(tmp.dir, 'stop');
  const sampler = spawn(process.execPath, ['-e', SAMPLER], { env: { ...process.env, NEEDLE: secret, STOP_FILE: stopFile }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  sampler.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => out.includes('sampling'), 'the sampler to start');

  // The first session on a fresh socket: its tmux client also starts the server.
  const env = { ...testEnv(tmp.dir), MORI_SAMPLER_API_KEY: secret, MORI_AWKWARD: awkward };
  const agent = `import json, os\nopen(${JSON.stringify(seen)}, "w").write(json.dumps([os.environ.get("MORI_SAMPLER_API_KEY"), os.environ.get("MORI_AWKWARD")]))\ninput()`;
  const r = await backend.spawn({ id: randomUUID(), command: 'python3', args: ['-c', agent], cwd: tmp.dir, env, cols: 80, rows: 24, transcriptDir: null });
  if (!r.ok) throw new Error(r.message);
  await waitFor(() => existsSync(seen) && readFileSync(seen, 'utf8').length > 0, 'the agent to write what it got');
  // Keep sampling a little after the start: the server and the agent are running now.
  await new Promise((resolve) => setTimeout(resolve, 300));
  writeFileSync(stopFile, '');
  const result = (await waitFor(() => /^\{.*\}$/m.exec(out), 'the sampler to report'))[0];
  const { sweeps, hits } = JSON.parse(result) as { sweeps: number; hits: string[] };

  expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual([secret, awkward]);
  expect(sweeps, 'sweeps of every /proc/*/cmdline during the start').toBeGreaterThan(5);
  expect(hits, 'processes whose arguments held the key').toEqual([]);
  await r.value.kill();
  await r.value.dispose();
});
