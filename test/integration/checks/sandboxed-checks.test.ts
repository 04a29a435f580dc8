// A sandboxed session's approved test command runs inside the session's sandbox (real bubblewrap):
// one that writes outside its project fails there and leaves nothing behind, while it still writes its
// project; the very same command for a session without a sandbox writes both.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moriIn } from '../../../testkit/mori-cli.js';

const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-checks-sbx-'));
const home = path.join(root, 'home');
// Outside every project, and not under /tmp (a sandbox's /tmp is its own): beside the person's files.
const outside = mkdtempSync(path.join(os.homedir(), '.mori-checks-outside-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A session whose test command writes `<name>` in its project and in the outside dir; its verification's command result. */
function verifyWith(name: string, sandbox: boolean): { status: string; detail: string } {
  const project = path.join(root, name);
  mkdirSync(project);
  const init = moriIn(home, ['init', project, '--name', name, '--agent', 'shell', '--command', 'bash', '--backend', 'direct', ...(sandbox ? ['--sandbox'] : []), '--json']);
  expect(init.code, init.err).toBe(0);
  const stateDir = String(init.json().stateDir);
  writeFileSync(path.join(stateDir, 'environment.md'), `# Environment\n\n## Setup\n- Test command: \`touch ${name}-in-project && touch ${outside}/${name}-outside\`\n`);
  expect(moriIn(home, ['trust', name, '--yes']).code).toBe(0);
  const v = moriIn(home, ['verify', name, '--json']);
  const results = v.json().results as { kind: string; status: string; detail: string }[];
  const cmd = results.find((r) => r.kind === 'command');
  if (cmd === undefined) throw new Error(`no command check: ${v.out}`);
  return cmd;
}

describe.skipIf(!bwrapWorks && !process.env['CI'])('a sandboxed session\'s checks (real bubblewrap)', () => {
  it('run its test command inside the sandbox: a write outside the project fails there, and succeeds without one', () => {
    const boxed = verifyWith('boxed', true);
    expect(boxed.status, boxed.detail).toBe('fail');
    expect(existsSync(path.join(outside, 'boxed-outside'))).toBe(false);
    expect(existsSync(path.join(root, 'boxed', 'boxed-in-project'))).toBe(true);

    const open = verifyWith('open', false);
    expect(open.status, open.detail).toBe('pass');
    expect(existsSync(path.join(outside, 'open-outside'))).toBe(true);
  });
});
