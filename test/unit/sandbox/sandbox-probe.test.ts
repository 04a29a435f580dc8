// The probe of bubblewrap: it works with the real bwrap, and a missing program or a kernel that
// refuses the namespaces is said with what to install or allow.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { probeBwrap, sandboxAvailable } from '../../../main/sandbox/sandbox-probe.js';

const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(path.join(os.tmpdir(), 'mori-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bubblewrap probe', () => {
  it.skipIf(!bwrapWorks && !process.env['CI'])('passes with the real bwrap, probed once per process', async () => {
    expect(await probeBwrap('bwrap')).toEqual({ ok: true, value: true });
    expect(sandboxAvailable('bwrap')).toBe(sandboxAvailable('bwrap'));
  });

  it('names the package when the program is absent', async () => {
    const r = await probeBwrap(path.join(dir, 'no-bwrap'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.code).toBe('not-found');
    expect(!r.ok && r.message).toMatch(/apt-get install bubblewrap/);
  });

  it('names the sysctl when the kernel refuses user namespaces', async () => {
    // What bwrap prints on a kernel with unprivileged user namespaces turned off.
    const refusing = path.join(dir, 'bwrap-refused');
    writeFileSync(refusing, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n');
    chmodSync(refusing, 0o755);
    const r = await probeBwrap(refusing);
    expect(!r.ok && r.message).toMatch(/No permissions to creating new namespace.*kernel\.unprivileged_userns_clone=1/);
  });
});
