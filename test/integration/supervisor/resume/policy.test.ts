// The resume policy end to end (DESIGN.md §5, "Resume policy"): a real `mori up`, the fake agent
// behind the claude profile, a reboot faked by a new boot id. A session set to resume fresh starts
// its agent without its id and with the full resume prompt, its previous id kept in session.json; one
// on `auto` whose conversation's size nobody measured resumes by its id. Under the Supervisor in this
// process, `auto` given a conversation's size goes fresh past the share of the window, by id under it.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ContextQuery, ContextUsage } from '../../../../main/supervisor/resume/resume-choice.js';
import { UpHarness } from '../../../support/mori-up.js';
import { SupervisorHarness } from '../../../support/supervisor-harness.js';
import { until } from '../../../../testkit/until.js';

let h: UpHarness | null = null;
let sh: SupervisorHarness | null = null;
afterEach(async () => {
  h?.cleanup();
  h = null;
  await sh?.cleanup();
  sh = null;
});

const STATE = `# Session State

## Current Task
- write the parser
- Files touched: src/parser.ts

## Next Steps
1. handle escaped quotes

## Decisions Made
- tokens are kept as byte offsets
`;

it('a fresh resume starts the agent without its id and with the full prompt; by id resumes it', async () => {
  h = new UpHarness('resume-policy', { MORI_BOOT_ID: 'boot-a' });
  const made = h.mori('init', h.project, '--name', 'fr', '--agent', 'claude', '--backend', 'direct', '--task', 'write the parser', '--resume', 'fresh');
  expect(made.code, made.stderr).toBe(0);
  h.init('bi', 'direct');
  writeFileSync(path.join(h.stateDir('fr'), 'session_state.md'), STATE);
  const first = h.up();
  const waiting = (name: string): boolean => first.lines().some((e) => e['type'] === 'session.activity' && e['to'] === 'waiting' && e['name'] === name);
  const transcripts = (): string[] => {
    const dir = path.join(h!.tmp, 'claude', 'projects');
    return existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).map((f) => path.basename(f)) : [];
  };
  await until('both agents', () => h!.starts().length === 2 && waiting('fr') && waiting('bi') && h!.starts().every((s) => transcripts().includes(`${s.sessionId}.jsonl`)), first.stderr);
  const idOf = (name: string): string => (JSON.parse(readFileSync(path.join(h!.stateDir(name), 'session.json'), 'utf8')) as { agent: { sessionId: string } }).agent.sessionId;
  const [frId, biId] = [idOf('fr'), idOf('bi')];
  first.child.kill('SIGKILL');
  await first.exited;

  const second = h.up([], { MORI_BOOT_ID: 'boot-b' });
  await until('both relaunches', () => h!.starts().length === 4 && second.lines().filter((e) => e['type'] === 'session.resumed').length === 2, second.stderr);
  const later = h.starts().slice(2) as (ReturnType<UpHarness['starts']>[number] & { prompt: string | null })[];
  const fresh = later.find((s) => s.resumeId === null && s.prompt?.includes('write the parser'));
  const byId = later.find((s) => s.resumeId !== null);
  expect(fresh, 'the fresh session started without --resume').toBeDefined();
  expect(fresh!.argv).not.toContain(frId);
  for (const part of ['Current task:', 'Next steps:', 'handle escaped quotes', 'Decisions (do not re-argue):', 'src/parser.ts']) expect(fresh!.prompt).toContain(part);
  expect(byId?.resumeId).toBe(biId);
  const frFile = JSON.parse(readFileSync(path.join(h.stateDir('fr'), 'session.json'), 'utf8')) as { agent: { sessionId: string; previousIds: string[] } };
  expect(frFile.agent.previousIds).toEqual([frId]);
  expect(frFile.agent.sessionId).not.toBe(frId);
  expect(h.workLog('fr')).toMatch(new RegExp(`SESSION RESUMED - reboot; [^\\n]*agent started fresh with the resume prompt \\(the session resumes fresh\\); its session ${frId} kept in previousIds`));
  const status = h.mori('status', 'fr');
  expect(status.stdout).toContain(`resume: fresh; earlier agent sessions: ${frId}`);
  expect(h.mori('status', 'bi').stdout).toContain("resume: as the daemon's default\n");
  expect(h.workLog('bi')).toMatch(new RegExp(`SESSION RESUMED - reboot; [^\\n]*agent relaunched with its resume command \\(session ${biId}\\); by id: the conversation's size is not known`));
}, 90_000);

for (const [held, kind] of [[151_000, 'fresh'], [40_000, 'by-id']] as const) {
  it(`auto, the conversation at ${held / 1000}k of 200k tokens: ${kind}`, async () => {
    sh = new SupervisorHarness('resume-auto');
    const dir = await sh.session('au');
    const asked: ContextQuery[] = [];
    const contextUsage = {
      lastContext: (q: ContextQuery): Promise<ContextUsage> => {
        asked.push(q);
        return Promise.resolve({ lastContextTokens: held, contextWindow: 200_000 });
      },
    };
    const s = sh.supervisor({ env: sh.env(), policy: { baseDelayMs: 100 }, verify: false, resumePolicy: { contextUsage } });
    await s.start();
    const events = sh.events;
    await until('the agent waiting', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'), () => events.map((e) => e.type).join(', '));
    await s.send('au', 'crash');
    await until('resumed', () => events.some((e) => e.type === 'session.resumed') && sh!.starts().length === 2, () => events.map((e) => e.type).join(', '));
    const [first, second] = sh.starts<{ sessionId: string; resumeId: string | null; prompt: string | null }>();
    expect(asked.map((q) => q.agentSessionId)).toEqual([first!.sessionId]);
    const file = JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8')) as { agent: { previousIds: string[] } };
    if (kind === 'fresh') {
      expect(second!.resumeId).toBeNull();
      expect(second!.prompt).toContain('Current task:');
      expect(file.agent.previousIds).toEqual([first!.sessionId]);
      expect(sh.workLog('au')).toMatch(/agent started fresh with the resume prompt \(the conversation held 151k tokens \(76 % of 200k\)\); its session [0-9a-f-]{36} kept in previousIds/);
    } else {
      expect(second!.resumeId).toBe(first!.sessionId);
      expect(file.agent.previousIds).toEqual([]);
      expect(sh.workLog('au')).toMatch(/agent relaunched with its resume command \(session [0-9a-f-]{36}\); by id: the conversation held 40k tokens \(20 % of 200k\)/);
    }
  }, 60_000);
}

it('auto under the daemon weighs the conversation by the agent record the usage readers read: past the share it goes fresh', async () => {
  h = new UpHarness('resume-policy-usage', { MORI_BOOT_ID: 'boot-a' });
  h.init('big', 'direct');
  const first = h.up();
  const transcript = (): string | undefined => {
    const dir = path.join(h!.tmp, 'claude', 'projects');
    const id = h!.starts()[0]?.sessionId;
    const found = existsSync(dir) && id !== undefined ? (readdirSync(dir, { recursive: true }) as string[]).find((f) => path.basename(f) === `${id}.jsonl`) : undefined;
    return found === undefined ? undefined : path.join(dir, found);
  };
  await until('the agent and its record', () => transcript() !== undefined && first.lines().some((e) => e['type'] === 'session.activity' && e['to'] === 'waiting'), first.stderr);
  const id = h.starts()[0]!.sessionId;
  // One request of the agent's own record carrying 700k tokens of a model whose window is 1M.
  const request = { type: 'assistant', timestamp: new Date().toISOString(), requestId: 'req_big', message: { id: 'msg_big', role: 'assistant', model: 'claude-opus-5-5', usage: { input_tokens: 1_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 699_000, output_tokens: 10 } } };
  appendFileSync(transcript()!, `${JSON.stringify(request)}\n`);
  first.child.kill('SIGKILL');
  await first.exited;

  const second = h.up([], { MORI_BOOT_ID: 'boot-b' });
  await until('the relaunch', () => h!.starts().length === 2 && second.lines().some((e) => e['type'] === 'session.resumed'), second.stderr);
  const again = h.starts()[1] as ReturnType<UpHarness['starts']>[number] & { prompt: string | null };
  expect(again.resumeId).toBeNull();
  expect(again.argv).not.toContain(id);
  expect(h.workLog('big')).toMatch(new RegExp(`agent started fresh with the resume prompt \\(the conversation held 700k tokens \\(70 % of 1\\.0M\\)\\); its session ${id} kept in previousIds`));
}, 90_000);
