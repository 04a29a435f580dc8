// The window's Changes tab in Debian's Chromium through a real `mori ui` and daemon, in a git
// project, driven by roles and names: the fake agent edits files while the tab is open, the daemon
// checkpoints them, and the tab (by the checkpoint's event, no Refresh) lists each changed
// file with its line counts and shows the diff of the selected one, unified by default, side by side
// on request, coloured by its language; the list between the files and the checkpoints is resized by
// keyboard and shows every file at 1280×720; while the agent works the Restore dialog says so and holds Restore until the person
// ticks the confirmation, and then restores the selected file; a suspend's checkpoint arrives by its `checkpoint.written` event (no
// Refresh) with `SESSION INTERRUPTED - system sleep` beside it in the timeline; Restore shows its
// plan first, then puts back one file alone, and then every file, on disk. Screenshots
// (light and dark, 1440×900 and 1280×720) go to out/e2e-screenshots/.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlClient } from '../../main/daemon-client/control-client.js';
import { call, client } from '../support/daemon.js';
import { until } from '../../testkit/until.js';
import { axeAudit } from '../support/axe-audit.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
let c: ControlClient;
const ORIGINAL = 'one\ntwo\nthree\n';
const file = (f: string): string => path.join(w.h.project, f);
const read = (f: string): string | null => (existsSync(file(f)) ? readFileSync(file(f), 'utf8') : null);

function git(...args: string[]): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  const r = spawnSync('git', ['-C', w.h.project, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

async function session(): Promise<{ state: string; activity: string }> {
  const list = (await call(c, 'list', {})) as unknown as { name: string; state: string; activity: string }[];
  const s = list.find((x) => x.name === 'work');
  if (!s) throw new Error('no session "work"');
  return s;
}

/** Types a line to the fake agent as the person would, through `mori send`. */
function send(text: string): void {
  const r = w.h.mori('send', 'work', text);
  if (r.code !== 0) throw new Error(`mori send: ${r.stderr}`);
}

// Each test runs the agent, git checkpoints and the page: 9 s alone, over 30 s on a runner busy with other files.
describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('the Changes tab', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-changes');
    writeFileSync(file('app.txt'), ORIGINAL);
    writeFileSync(file('README.md'), '# project\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'files');
    w.h.init('work', 'direct');
    await w.start();
    c = (await client(w.h.home)).c;
    if ((await session()).state !== 'running') await c.request('start', { session: 'work' });
  }, 120_000);
  afterAll(async () => {
    c?.close();
    await w?.stop();
  });

  it('lists the files of a new checkpoint as it is written, with their line counts, and shows a unified, coloured diff', async () => {
    await expect.poll(async () => (await session()).state === 'running' && w.h.starts().length > 0, { timeout: 25_000 }).toBe(true);
    const first = w.h.mori('checkpoint', 'work', '-m', 'before the agent');
    expect(first.code, first.stderr).toBe(0);

    const { page } = w;
    // The first look at the page: on a runner busy with other files its list can take more than 30 s.
    const row = page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /work/ });
    await row.waitFor({ timeout: 60_000 }).catch(async (err: unknown) => {
      throw new Error(`${String(err)}\nthe page says: ${(await page.locator('body').innerText()).slice(0, 2000)}\nmori ui: ${w.uiErr.slice(-2000)}`);
    });
    await row.click();
    await page.getByRole('tab', { name: 'Changes', exact: true }).click();
    const files = page.getByRole('region', { name: 'Changed files' });
    await files.getByText('No file changed since checkpoint #1.').waitFor();

    // The agent edits while the tab is open; the checkpoint's event reads the tab afresh: no Refresh.
    send('edit:app.txt=one\\nTWO\\nthree\\nfour\\n');
    send('edit:notes/new.txt=hello\\n');
    send('edit:src/answer.ts=// the answer\\nexport const answer: number = 42;\\n');
    await until('the agent to write the files', () => read('notes/new.txt') === 'hello\n' && read('app.txt') === 'one\nTWO\nthree\nfour\n' && read('src/answer.ts') !== null);
    // Taken by the daemon, as its periodic checkpoints are: it announces it (`checkpoint.written`).
    expect(await call(c, 'checkpoint.take', { session: 'work', message: 'after the edits' })).toMatchObject({ created: true });
    await files.getByRole('button', { name: 'app.txt, modified, +2 −1' }).waitFor({ timeout: 10_000 });
    await files.getByRole('button', { name: 'notes/new.txt, added, +1 −0' }).waitFor();
    await page.getByRole('status').getByText('3 files changed since checkpoint #1, +5 −1').waitFor();
    // The tab's sections are headed one level below the session's title (a screen reader's outline).
    await page.getByRole('heading', { name: 'Changed files', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Checkpoints', level: 2 }).waitFor();

    // A modified file: unified by default, the checkpoint's line above the one that replaced it.
    await files.getByRole('button', { name: /^app\.txt/ }).click();
    const diff = page.getByRole('region', { name: 'app.txt changes since checkpoint #1' });
    const unified = diff.getByRole('textbox', { name: 'app.txt changes since checkpoint #1, unified' });
    await unified.getByText('TWO', { exact: true }).waitFor();
    expect(await unified.getByText('two', { exact: true }).evaluate((el) => el.closest('.cm-deletedChunk') !== null)).toBe(true);
    const layout = diff.getByRole('group', { name: 'Diff layout' });
    expect(await layout.getByRole('button', { name: 'Unified' }).getAttribute('aria-pressed')).toBe('true');
    // Side by side on request, each side its own text box.
    await layout.getByRole('button', { name: 'Side by side' }).click();
    await diff.getByRole('textbox', { name: 'app.txt at checkpoint #1' }).getByText('two', { exact: true }).waitFor();
    await diff.getByRole('textbox', { name: 'app.txt now' }).getByText('TWO', { exact: true }).waitFor();
    expect(await diff.getByRole('textbox', { name: 'app.txt now' }).innerText()).toContain('four');
    // The merge view is read-only: typing changes nothing.
    await diff.getByRole('textbox', { name: 'app.txt now' }).click();
    await page.keyboard.type('typed');
    expect(await diff.getByRole('textbox', { name: 'app.txt now' }).innerText()).not.toContain('typed');
    await w.shot('changes-split');
    await layout.getByRole('button', { name: 'Unified' }).click();
    await unified.waitFor();

    // An added TypeScript file: one column (no empty left half, no layout to choose), coloured by its language.
    await files.getByRole('button', { name: /^src\/answer\.ts/ }).click();
    const ts = page.getByRole('region', { name: 'src/answer.ts changes since checkpoint #1' });
    const code = ts.getByRole('textbox', { name: 'src/answer.ts changes since checkpoint #1, unified' });
    const keyword = code.getByText('export', { exact: true });
    await keyword.waitFor();
    expect(await ts.getByRole('group', { name: 'Diff layout' }).count()).toBe(0);
    const colour = (l: typeof keyword): Promise<string> => l.evaluate((el) => getComputedStyle(el).color);
    // The keyword and the comment each in a colour of their own, not the text's.
    const plain = await code.evaluate((el) => getComputedStyle(el).color);
    expect(new Set([plain, await colour(keyword), await colour(code.getByText('// the answer', { exact: true }))]).size).toBe(3);

    const timeline = page.getByRole('region', { name: 'Checkpoints' });
    await timeline.getByRole('listitem', { name: 'Checkpoint #2' }).getByText('after the edits', { exact: false }).waitFor();
    await w.shot('changes');
    expect(await axeAudit(page, 'changes', { within: '#panel-changes' })).toEqual([]);
  });

  it('the changed files list is resized by keyboard, and shows every file at 1280×720', async () => {
    const { page } = w;
    const files = page.getByRole('region', { name: 'Changed files' });
    const splitter = page.getByRole('separator', { name: 'Resize the changed files list' });
    const value = async (): Promise<number> => Number(await splitter.getAttribute('aria-valuenow'));
    const height = async (): Promise<number> => (await files.boundingBox())?.height ?? 0;
    await splitter.focus();
    const [v0, h0] = [await value(), await height()];
    await page.keyboard.press('ArrowDown');
    expect(await value()).toBe(v0 + 24);
    expect(await height()).toBe(h0 + 24);
    await page.keyboard.press('Shift+ArrowUp');
    expect(await value()).toBe(v0 + 24 - 96);
    await page.keyboard.press('Home');
    expect(await value()).toBe(80);
    expect(await height()).toBe(80);
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowDown');
    expect(await value()).toBe(80 + 6 * 24);

    await page.setViewportSize({ width: 1280, height: 720 });
    const box = await files.boundingBox();
    for (const name of [/^app\.txt/, /^notes\/new\.txt/, /^src\/answer\.ts/]) {
      const b = await files.getByRole('button', { name }).boundingBox();
      expect(b && box && b.y + b.height <= box.y + box.height, `${String(name)} in view`).toBe(true);
    }
    await w.shot('changes-1280x720');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('says the agent is working, holds Restore until the person confirms, then restores while it works', async () => {
    const { page } = w;
    send('edit:notes/later.txt=later\\n');
    await until('the agent to write notes/later.txt', () => read('notes/later.txt') === 'later\n');
    send('work:60000');
    await expect.poll(async () => (await session()).activity, { timeout: 25_000 }).toBe('working');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('region', { name: 'Changed files' }).getByRole('button', { name: 'notes/later.txt, added, +1 −0' }).click();
    await page.getByRole('region', { name: 'Checkpoints' }).getByRole('button', { name: 'Restore notes/later.txt to checkpoint #1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore notes/later.txt to checkpoint #1?' });
    await dialog.getByRole('alert').getByText('The agent is working').waitFor();
    const plan = dialog.getByRole('list', { name: 'Files the restore changes' });
    await plan.getByText('notes/later.txt').waitFor();
    expect(await plan.getByRole('listitem').allInnerTexts()).toEqual(['delete notes/later.txt']);
    const restore = dialog.getByRole('button', { name: 'Restore', exact: true });
    expect(await restore.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Restore while the agent is working' }).check();
    await w.shot('changes-restore-busy');
    // Confirmed, the restore goes ahead while the agent works (the daemon answers `busy` without it).
    await restore.click();
    await dialog.waitFor({ state: 'detached' });
    expect((await session()).activity).toBe('working');
    expect([read('notes/later.txt'), read('app.txt')]).toEqual([null, 'one\nTWO\nthree\nfour\n']);
    await page.getByRole('status').getByText('Restored 1 file to checkpoint #1; checkpoint #3 undoes it.').waitFor();
  });

  it("shows a suspend's checkpoint by its event, with the interruption beside it", async () => {
    const { page } = w;
    // The agent writes once more (its input is read while it works); no Refresh: the suspend's checkpoint.written event reads the tab afresh.
    send('edit:notes/last.txt=last\\n');
    await until('the agent to write notes/last.txt', () => read('notes/last.txt') === 'last\n');
    expect(await call(c, 'hint.power', { kind: 'suspend' })).toEqual({ interrupted: 1 });
    const cp4 = page.getByRole('region', { name: 'Checkpoints' }).getByRole('listitem', { name: 'Checkpoint #4' });
    await cp4.getByRole('list', { name: 'Work log at checkpoint #4' }).getByText('SESSION INTERRUPTED - system sleep', { exact: false }).waitFor({ timeout: 10_000 });
    await page.getByRole('region', { name: 'Changed files' }).getByRole('button', { name: 'notes/last.txt, added, +1 −0' }).waitFor();
    await w.shot('changes-timeline');
  });

  it('restores the selected file, then every file, to the first checkpoint on disk after showing the plan', async () => {
    const { page } = w;
    expect((await session()).state).not.toBe('running');
    const files = page.getByRole('region', { name: 'Changed files' });
    await files.getByRole('button', { name: /^app\.txt/ }).click();
    const timeline = page.getByRole('region', { name: 'Checkpoints' });
    await timeline.getByRole('button', { name: 'Restore app.txt to checkpoint #1' }).click();
    const one = page.getByRole('dialog', { name: 'Restore app.txt to checkpoint #1?' });
    const plan = one.getByRole('list', { name: 'Files the restore changes' });
    await plan.getByText('app.txt').waitFor();
    expect(await plan.getByRole('listitem').allInnerTexts()).toEqual(['restore app.txt']);
    await one.getByRole('button', { name: 'Restore', exact: true }).click();
    await one.waitFor({ state: 'detached' });
    expect(read('app.txt')).toBe(ORIGINAL);
    expect(read('notes/new.txt')).toBe('hello\n');
    await page.getByRole('status').getByText(/Restored 1 file to checkpoint #1; checkpoint #\d+ undoes it/).waitFor();
    await files.getByRole('button', { name: /^app\.txt/ }).waitFor({ state: 'detached' });

    await timeline.getByRole('button', { name: 'Restore all files to checkpoint #1' }).click();
    const all = page.getByRole('dialog', { name: 'Restore files to checkpoint #1?' });
    const allPlan = all.getByRole('list', { name: 'Files the restore changes' });
    await allPlan.getByText('notes/new.txt').waitFor();
    expect((await allPlan.getByRole('listitem').allInnerTexts()).sort()).toEqual(['delete notes/last.txt', 'delete notes/new.txt', 'delete src/answer.ts']);
    await w.shot('changes-restore');
    await all.getByRole('button', { name: 'Restore', exact: true }).click();
    await all.waitFor({ state: 'detached' });
    expect([read('app.txt'), read('notes/new.txt'), read('notes/last.txt'), read('src/answer.ts'), read('README.md')]).toEqual([ORIGINAL, null, null, null, '# project\n']);
    await files.getByText('No file changed since checkpoint #1.').waitFor();
  });
});
