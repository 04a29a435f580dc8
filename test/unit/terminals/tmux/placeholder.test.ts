// A new tmux session's placeholder, left running when its daemon was killed before replacing it, ends
// with a failure's status: the next daemon took it for the agent, and a status 0 would end the session
// as finished. Run for real through sh, with a `sleep` first on PATH that returns at once.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER } from '../../../../main/terminals/tmux/session-setup.js';

const bin = mkdtempSync(path.join(os.tmpdir(), 'mori-placeholder-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('the tmux placeholder', () => {
  it('ends with a non-zero status once its wait is over', () => {
    writeFileSync(path.join(bin, 'sleep'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(bin, 'sleep'), 0o755);
    const r = spawnSync(PLACEHOLDER[0]!, PLACEHOLDER.slice(1), { env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` }, timeout: 10_000 });
    expect(r.error).toBeUndefined();
    expect(r.status).not.toBe(0);
    expect(r.status).not.toBeNull();
  });
});
