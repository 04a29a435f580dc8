// The daemon's log rotation on real files: past its size the log moves to daemon.1.log, older ones
// shift up, and no more than LOG_KEEP rotated files remain.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LOG_KEEP, RotatingLog } from '../../../main/daemon/daemon-log.js';
import { tempDir } from '../../../testkit/mori-cli.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('rotates by size and keeps LOG_KEEP old files', () => {
  dir = tempDir('daemon-log');
  const file = path.join(dir, 'logs', 'daemon.log');
  const log = new RotatingLog(file, 100);
  for (let i = 0; i < 20; i++) log.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`);
  const names = readdirSync(path.dirname(file)).sort();
  expect(names).toEqual(['daemon.1.log', 'daemon.2.log', 'daemon.3.log', 'daemon.log'].slice(0, LOG_KEEP + 1).sort());
  expect(readFileSync(file, 'utf8')).toMatch(/line 19/);
  expect(readFileSync(path.join(dir, 'logs', 'daemon.1.log'), 'utf8')).toMatch(/line 17/);
  expect(existsSync(path.join(dir, 'logs', `daemon.${LOG_KEEP + 1}.log`))).toBe(false);
});
