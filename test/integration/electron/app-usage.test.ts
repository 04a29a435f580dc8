// The desktop app's tray tooltip says today's tokens and cost across the sessions, in Node against the
// fake `electron` module with a real daemon and the fake agent behind the claude profile: once the
// agent's transcript holds the real Claude Code record of the fixture (stamped now) and the daemon
// says the agent stopped, the tooltip reads the fixture's figures under the session counts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => import('../../support/fakes/electron.js'));
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { claudeTranscriptPath } from '../../../main/agents/claude/transcript.js';
import { call, client } from '../../support/daemon.js';
import { endTestApp, lastTray, resetElectronFakes, startTestApp, type TestApp } from '../../support/electron-app.js';
import { UpHarness } from '../../support/mori-up.js';
import { REPO } from '../../../testkit/mori-cli.js';
import { until, untilValue } from '../../../testkit/until.js';

const FIXTURE = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'claude', 'projects', '-fixture-project', '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10.jsonl');

let h: UpHarness;
let t: TestApp | null = null;
beforeEach(resetElectronFakes);
afterEach(async () => {
  await endTestApp(t, h);
  t = null;
});

describe('the tray tooltip', () => {
  it("says today's tokens and cost once an agent's record holds requests", { timeout: 120_000 }, async () => {
    h = new UpHarness('app-usage', { FAKE_AGENT_NO_HOOKS: '1' });
    h.init('alpha', 'direct');
    t = await startTestApp(h);
    const stateDir = h.stateDir('alpha');
    const agent = await untilValue(
      'the agent session id recorded',
      () => Promise.resolve((JSON.parse(readFileSync(path.join(stateDir, 'session.json'), 'utf8')) as { agent: { sessionId: string | null; cwd: string | null } }).agent),
      (a) => a.sessionId !== null,
      60_000,
    );
    expect(lastTray().tooltip).not.toMatch(/today/);
    const transcript = claudeTranscriptPath({ CLAUDE_CONFIG_DIR: h.env['CLAUDE_CONFIG_DIR'] }, agent.cwd ?? h.project, agent.sessionId as string);
    mkdirSync(path.dirname(transcript), { recursive: true });
    appendFileSync(transcript, readFileSync(FIXTURE, 'utf8').replace(/"timestamp":"[^"]+"/g, `"timestamp":"${new Date().toISOString()}"`));
    const { c } = await client(h.home);
    try {
      await call(c, 'stop', { session: 'alpha' });
    } finally {
      c.close();
    }
    await until('the tooltip to say today', () => /\ntoday: /.test(lastTray().tooltip), () => lastTray().tooltip, 30_000);
    expect(lastTray().tooltip).toMatch(/^Mori — .+\ntoday: 24\.6k tokens, \$0\.\d{4}$/);
  });
});
