// The state watcher on a real directory: external edits are reported, Mori's own writes are not,
// and it keeps working through an editor's rename-save and a delete-and-recreate.
import { renameSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StateFileChanged } from '../../../common/state-events.js';
import { createSession } from '../../../main/state/state-dir.js';
import { updateSessionFile } from '../../../main/state/session-file.js';
import { StateWatcher } from '../../../main/state/state-watcher.js';
import { appendEntry } from '../../../main/state/work-log.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { until as waitUntil } from '../../../testkit/until.js';

let watcher: StateWatcher | null = null;
afterEach(async () => {
  await watcher?.close();
  watcher = null;
});

async function setup() {
  const created = await createSession({ projectDir: tempDir('w-proj'), name: 's', profile: 'claude', backend: 'direct', home: tempDir('w-home') });
  if (!created.ok) throw new Error(created.message);
  const events: StateFileChanged[] = [];
  watcher = new StateWatcher((e) => events.push(e), 100);
  await watcher.add(created.value.stateDir);
  return { dir: created.value.stateDir, events };
}

const until = (cond: () => boolean, what: string, ms = 10_000): Promise<void> => waitUntil(what, cond, undefined, ms, 25);

/** Waits long enough for any (wrong) event to arrive: several debounce periods. */
const quiet = () => new Promise((r) => setTimeout(r, 800));

describe('state watcher', () => {
  it('reports an external edit once per burst, as a typed event', async () => {
    const { dir, events } = await setup();
    const file = path.join(dir, 'session_state.md');
    for (let i = 0; i < 5; i++) appendFileSync(file, `- line ${i}\n`);
    await until(() => events.length > 0, 'an event');
    await quiet();
    expect(events).toEqual([{ type: 'state.changed', stateDir: dir, file: 'session_state.md', change: 'changed' }]);
  });

  it("ignores Mori's own writes but reports the agent's append right after", async () => {
    const { dir, events } = await setup();
    appendEntry(dir, ['SESSION RESUMED']);
    updateSessionFile(dir, (s) => ({ ...s, autoResume: false }));
    await quiet();
    expect(events).toEqual([]);
    appendFileSync(path.join(dir, 'work_log.md'), '\n## 2026-11-30 10:00\n- agent did a thing\n');
    await until(() => events.length > 0, 'the agent append');
    expect(events[0]).toMatchObject({ file: 'work_log.md', change: 'changed' });
  });

  it("survives an editor's rename-save and a delete-and-recreate", async () => {
    const { dir, events } = await setup();
    const file = path.join(dir, 'environment.md');
    // rename-save: write a temp file beside it, rename over
    writeFileSync(path.join(dir, '.environment.md.swp'), '## Setup\n- Test command: `npm test`\n');
    renameSync(path.join(dir, '.environment.md.swp'), file);
    await until(() => events.some((e) => e.file === 'environment.md'), 'the rename-save');
    events.length = 0;
    unlinkSync(file);
    await until(() => events.some((e) => e.change === 'deleted'), 'the deletion');
    writeFileSync(file, '## Setup\n');
    await until(() => events.some((e) => e.file === 'environment.md' && e.change === 'changed'), 'the recreation');
    // and later edits are still seen
    events.length = 0;
    appendFileSync(file, '- more\n');
    await until(() => events.length > 0, 'an edit after recreation');
  });
});
