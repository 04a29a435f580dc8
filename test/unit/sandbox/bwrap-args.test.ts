// Sandbox rules as a bubblewrap argv, on real dirs: absent paths skipped, binds put back over hidden
// dirs shallowest first, the stricter of two lists winning, and never --new-session.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../main/sandbox/bwrap-args.js';
import type { SandboxRules } from '../../../main/sandbox/sandbox-rules.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mori-bwrap-args-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const at = (...p: string[]): string => path.join(root, ...p);
for (const d of ['proj/.mori/main/transcript', 'proj/.mori/other', 'home/.claude', 'mori/hooks/abc']) mkdirSync(at(d), { recursive: true });
for (const f of ['proj/.mori/main/work_log.md', 'proj/.mori/main/session.json', 'mori/hooks/report.sh', 'agent.sock']) writeFileSync(at(f), '');

const rules: SandboxRules = {
  readWrite: [at('proj'), at('proj/.mori/main/work_log.md'), at('proj/.mori/main/session_state.md'), at('home/.claude'), at('mori/hooks/abc')],
  readOnly: [at('proj/.mori/main'), at('mori/hooks/report.sh')],
  hidden: [at('mori'), at('proj/.mori'), at('agent.sock'), at('mori/hooks'), at('nowhere')],
  home: 'read-only',
  network: 'full',
  allowedHosts: [],
};

/** The argv's mount operations as `op path` lines, in order. */
function ops(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--tmpfs' || a === '--dev' || a === '--proc' || a === '--chdir') out.push(`${a} ${args[++i]}`);
    else if (a === '--bind' || a === '--ro-bind') out.push(`${a} ${args[++i]} ${args[++i]}`);
  }
  return out;
}

describe('bwrapArgs', () => {
  it('hides, then binds back in depth order, and skips what is absent', () => {
    const r = bwrapArgs(rules, { cwd: at('proj') });
    if (!r.ok) throw new Error(r.message);
    expect(r.value.slice(0, 3)).toEqual(['--die-with-parent', '--unshare-pid', '--unshare-ipc']);
    expect(ops(r.value)).toEqual([
      '--ro-bind / /',
      '--dev /dev',
      '--proc /proc',
      `--tmpfs ${root}/mori`,
      `--ro-bind /dev/null ${root}/agent.sock`,
      `--bind ${root}/proj ${root}/proj`,
      `--tmpfs ${root}/proj/.mori`,
      `--bind ${root}/home/.claude ${root}/home/.claude`,
      // mori/hooks lies in the hidden mori: nothing to hide again.
      `--bind ${root}/mori/hooks/abc ${root}/mori/hooks/abc`,
      `--ro-bind ${root}/proj/.mori/main ${root}/proj/.mori/main`,
      `--ro-bind ${root}/mori/hooks/report.sh ${root}/mori/hooks/report.sh`,
      // session_state.md does not exist: skipped.
      `--bind ${root}/proj/.mori/main/work_log.md ${root}/proj/.mori/main/work_log.md`,
      `--chdir ${root}/proj`,
    ]);
    expect(r.value).not.toContain('--new-session');
    expect(r.value).not.toContain('--unshare-net');
  });

  it('takes the stricter list for a path in two', () => {
    const r = bwrapArgs({ ...rules, readOnly: [at('proj')] }, { cwd: at('proj') });
    if (!r.ok) throw new Error(r.message);
    const o = ops(r.value);
    expect(o.indexOf(`--ro-bind ${root}/proj ${root}/proj`)).toBeGreaterThan(o.indexOf(`--bind ${root}/proj ${root}/proj`));
  });

  it('cuts the network off for none and allowlist (its own loopback), not for full, and makes the dirs asked for', () => {
    const none = bwrapArgs({ ...rules, network: 'none', readWrite: [...rules.readWrite, at('home/.codex')] }, { cwd: at('proj'), makeDirs: [at('home/.codex')] });
    expect(none.ok && none.value.includes('--unshare-net')).toBe(true);
    expect(none.ok && ops(none.value)).toContain(`--bind ${root}/home/.codex ${root}/home/.codex`);
    const allow = bwrapArgs({ ...rules, network: 'allowlist' }, { cwd: at('proj') });
    expect(allow.ok && allow.value.includes('--unshare-net')).toBe(true);
    const full = bwrapArgs(rules, { cwd: at('proj') });
    expect(full.ok && full.value.includes('--unshare-net')).toBe(false);
  });
});
