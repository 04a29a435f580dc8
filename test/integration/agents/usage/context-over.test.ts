// A conversation past the context share the person set is said once (main/daemon/context-watch.ts),
// under a real `mori up` with the fake agent behind the claude profile whose transcript gets the real
// Claude Code record of the fixture (1.2 % of its 1M window): with the share set at 1 %, the turn that
// ends after it makes one `session.contextOver` event; later turns add none while it stays past; set
// above it, a turn resets it; set under it again, the next turn says it once more.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeTranscriptPath } from '../../../../main/agents/claude/transcript.js';
import { UpHarness } from '../../../support/mori-up.js';
import { REPO } from '../../../../testkit/mori-cli.js';
import { until, untilValue } from '../../../../testkit/until.js';

const FIXTURE = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'claude', 'projects', '-fixture-project', '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10.jsonl');

let h: UpHarness;
afterEach(() => h.cleanup());

describe('the context share set', () => {
  it('is said once per crossing, after the turn that crossed it', async () => {
    h = new UpHarness('context-over', { FAKE_AGENT_NO_HOOKS: '1' });
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    const setWarn = (percent: number): void => writeFileSync(path.join(h.home, 'settings.json'), JSON.stringify({ usage: { contextWarnPercent: percent } }));
    setWarn(1);
    h.init('alpha', 'direct');
    const u = h.up();
    const overs = (): Record<string, unknown>[] => u.lines().filter((l) => l['type'] === 'session.contextOver');
    const turnsEnded = (): number => u.lines().filter((l) => l['type'] === 'session.activity' && l['from'] === 'working').length;
    const turn = async (): Promise<void> => {
      const before = turnsEnded();
      expect(h.mori('send', 'alpha', 'work:2500').code).toBe(0);
      await until('the turn to end', () => turnsEnded() > before, () => u.stderr());
    };
    const agent = await untilValue(
      'the agent session id recorded',
      () => Promise.resolve((JSON.parse(readFileSync(path.join(h.stateDir('alpha'), 'session.json'), 'utf8')) as { agent: { sessionId: string | null; cwd: string | null } }).agent),
      (a) => a.sessionId !== null,
      60_000,
    );
    await until('waiting', () => u.lines().some((l) => l['type'] === 'session.activity' && l['to'] === 'waiting'), () => u.stderr());
    expect(overs()).toEqual([]);
    const transcript = claudeTranscriptPath({ CLAUDE_CONFIG_DIR: h.env['CLAUDE_CONFIG_DIR'] }, agent.cwd ?? h.project, agent.sessionId as string);
    mkdirSync(path.dirname(transcript), { recursive: true });
    appendFileSync(transcript, readFileSync(FIXTURE, 'utf8').replace(/"timestamp":"[^"]+"/g, `"timestamp":"${new Date().toISOString()}"`));

    await turn();
    await until('the crossing said', () => overs().length === 1, () => u.stderr());
    expect(overs()[0]).toMatchObject({ name: 'alpha', warn: 0.01, model: expect.stringMatching(/claude/) });
    expect(overs()[0]?.['share']).toBeCloseTo(12354 / 1_000_000, 6);
    await turn();
    await turn();
    // The read after a turn takes a moment: a second event would have come by the next turn's end.
    expect(overs()).toHaveLength(1);

    setWarn(2);
    await turn();
    // The read after a turn's end takes its share set when it runs: a second turn makes sure the
    // first one's read, under 2 %, is done before the mark goes back to 1 %.
    await turn();
    setWarn(1);
    await turn();
    await until('said again after falling under and crossing once more', () => overs().length === 2, () => u.stderr());
  }, 120_000);
});
