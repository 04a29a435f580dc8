// `mori status S` tells where the agent left off: its next steps, the files it touched and its last
// working state from session_state.md, beside the task and the last work-log entry. Real CLI process.
import { copyFileSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initShellSession, moriIn } from '../../../../testkit/mori-cli.js';

let root: string;
let home: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-status-'));
  home = path.join(root, 'home');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mori status', () => {
  it('shows the next steps and files touched of session_state.md, in text and --json', () => {
    const dir = initShellSession(root, home, 'auth');
    copyFileSync(new URL('../../../support/fixtures/checks/seed-session-state.md', import.meta.url), path.join(dir, 'session_state.md'));
    expect(moriIn(home, ['log', 'auth', 'Added middleware.py']).code).toBe(0);

    const text = moriIn(home, ['status', 'auth']);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('task: Implementing user auth middleware');
    expect(text.out).toContain('last working state: tests passing, need to add rate limiting');
    expect(text.out).toContain('next steps:\n  1. Add rate limiting decorator\n  2. Test with curl\n  3. Update documentation\n');
    expect(text.out).toContain('files touched: auth.py, middleware.py, tests/test_auth.py\n');
    expect(text.out).toMatch(/last log entry \([^)]*\):\n {2}- Added middleware\.py/);

    const json = moriIn(home, ['status', 'auth', '--json']).json();
    expect(json['leftOff']).toEqual({
      nextSteps: ['Add rate limiting decorator', 'Test with curl', 'Update documentation'],
      filesTouched: ['auth.py', 'middleware.py', 'tests/test_auth.py'],
      lastWorkingState: 'tests passing, need to add rate limiting',
    });
  });

  it('says nothing of where it left off when session_state.md is gone, and still shows the rest', () => {
    const dir = initShellSession(root, home, 'bare');
    unlinkSync(path.join(dir, 'session_state.md'));
    const r = moriIn(home, ['status', 'bare', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()['leftOff']).toBeNull();
  });
});
