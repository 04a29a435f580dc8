// The app's own settings for real (main/electron/settings.ts): electron-store, in a child Node
// process where 'electron' is the fake (electron-store imports it too, so the hook covers
// dependencies), keeps window bounds and theme in `<userData>/mori-app.json` across runs, with
// defaults on the first run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../../../testkit/mori-cli.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function child(set?: Record<string, unknown>): Record<string, unknown> {
  const args = ['--import', './test/support/fakes/electron-loader.mjs', '--import', 'tsx', 'test/support/fixtures/app-settings-child.ts', ...(set ? [JSON.stringify(set)] : [])];
  const r = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', env: { ...process.env, FAKE_ELECTRON_USER_DATA: dir }, timeout: 60_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

describe('electronSettings', () => {
  it('starts from the defaults and keeps what was set for the next run', { timeout: 120_000 }, () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mori-settings-'));
    expect(child({ theme: 'dark', windowBounds: { x: 1, y: 2, width: 800, height: 500 } })).toEqual({ windowBounds: null, theme: 'system', startAtLogin: false });
    expect(existsSync(path.join(dir, 'userData', 'mori-app.json'))).toBe(true);
    expect(child()).toEqual({ windowBounds: { x: 1, y: 2, width: 800, height: 500 }, theme: 'dark', startAtLogin: false });
  });
});
