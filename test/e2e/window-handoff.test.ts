// "Continue with…" in Debian's Chromium through a real `mori ui` and daemon, the fake agent behind
// both the claude and the codex profiles, driven by roles and names: the header's More actions menu
// opens a dialog asking which agent continues the session (its own profile not offered) and why; the
// hand-off stops the claude agent and starts codex with the resume prompt, the status line says so,
// the header shows codex, one notice tells it, and the work log has its entry. The palette opens the same dialog, now
// offering claude back. axe finds no serious or critical violation in the dialog. Screenshots, light
// and dark at 1440×900 and 1280×720, go to out/e2e-screenshots/handoff-*.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeAudit } from '../support/axe-audit.js';
import { FAKE_AGENT } from '../support/mori-up.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

const sessionJson = (name: string) => JSON.parse(readFileSync(path.join(w.h.stateDir(name), 'session.json'), 'utf8')) as { agent: { profile: string; sessionId: string | null; previousIds: string[] } };

describe.skipIf(!existsSync(CHROMIUM) && !process.env['CI'])('continuing a session with another agent in the window', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-handoff', undefined, { MORI_AGENT_BIN_CODEX: FAKE_AGENT });
    w.h.env['CODEX_HOME'] = path.join(w.h.tmp, 'codex');
    mkdirSync(w.h.env['CODEX_HOME'], { recursive: true });
    w.h.init('alpha', 'direct');
    writeFileSync(path.join(w.h.stateDir('alpha'), 'session_state.md'), '# Session State\n\n## Current Task\n- write the parser\n\n## Next Steps\n1. handle escaped quotes\n');
    await w.start();
    w.page.setDefaultTimeout(20_000);
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('More actions → Continue with… asks which agent and why, then codex continues the session; the palette opens the same dialog', async () => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /alpha/ }).click();
    await page.getByRole('heading', { level: 1, name: 'alpha' }).waitFor();
    await expect.poll(() => page.getByRole('option', { name: /alpha/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    await expect.poll(() => sessionJson('alpha').agent.sessionId, { timeout: 25_000 }).not.toBeNull();
    const claudeId = sessionJson('alpha').agent.sessionId;

    const header = page.locator('header.session-header');
    await header.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Continue with…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Continue alpha with another agent' });
    const agent = dialog.getByRole('combobox', { name: 'Agent' });
    // Every agent but the one it runs; the shell and custom profiles need a command approved apart.
    expect(await agent.getByRole('option').allInnerTexts()).toEqual(['codex', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
    await agent.selectOption('codex');
    await dialog.getByRole('textbox', { name: 'Why (optional)' }).fill('usage limit');
    await w.shot('handoff-dialog');
    await page.setViewportSize({ width: 1280, height: 720 });
    await w.shot('handoff-dialog-1280');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await axeAudit(page, 'handoff dialog', { within: 'dialog[open]' })).toEqual([]);
    await dialog.getByRole('button', { name: 'Continue with codex' }).click();

    await expect.poll(() => page.getByRole('status').allInnerTexts()).toContainEqual("alpha continues with codex; claude's conversation is kept.");
    await expect.poll(() => w.h.starts().length, { timeout: 25_000 }).toBe(2);
    expect(w.h.starts()[1]?.argv).toContain('--no-daemon');
    expect(sessionJson('alpha').agent).toMatchObject({ profile: 'codex', previousIds: [claudeId] });
    expect(w.h.workLog('alpha')).toContain(`SESSION HANDED OFF - claude → codex (usage limit); claude session ${claudeId} kept in previousIds`);
    await expect.poll(() => header.innerText()).toMatch(/codex · direct/);
    // One notice of the hand-off, from its one event.
    await expect.poll(() => page.getByText('alpha continues with codex', { exact: true }).count()).toBe(1);
    await w.shot('handoff-done');

    // The palette's action opens the same dialog, offering claude back now.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Go to a session or run an action' }).fill('continue');
    await palette.getByRole('option', { name: 'Continue alpha with another agent…' }).click();
    const again = page.getByRole('dialog', { name: 'Continue alpha with another agent' });
    expect(await again.getByRole('combobox', { name: 'Agent' }).getByRole('option').allInnerTexts()).toEqual(['claude', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => again.count()).toBe(0);
    expect(w.h.starts()).toHaveLength(2);
  }, 120_000);
});
