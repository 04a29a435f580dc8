// Pi's profile against what the real 0.73.1 showed and wrote (screens in
// test/support/fixtures/agent-screens/pi-*.txt, a session file's lines as it wrote them): its screens
// read as working / waiting / error (a retry's countdown as working), its extension's reports, its
// launch lines, its session file and its usage record.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import type { RecordUsageSource } from '../../../../main/agents/usage/usage-record.js';
import { detectActivity } from '../../../../main/agents/screen-activity.js';
import { hookReport } from '../../../../main/agents/hooks/hook-events.js';
import { hookLayer } from '../../../../main/agents/hooks/hook-layers.js';
import { piUsageParser } from '../../../../main/agents/pi/usage.js';

const pi = PROFILES.pi;
const screen = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');
const ID = '31111111-2222-4333-8444-555555555555';
const HEADER = `{"type":"session","version":3,"id":"01a24af1-fb8f-7443-8ce7-d2c7eb3ba19c","timestamp":"2026-12-06T10:41:42.289Z","cwd":"/p"}\n`;
const ANSWER = `{"type":"message","id":"ecb0bcef","parentId":"3c889c9d","timestamp":"2026-12-06T10:42:54.663Z","message":{"role":"assistant","content":[{"type":"text","text":"stand-in reply 2"}],"api":"openai-responses","provider":"stand-in","model":"pi-stand-in","usage":{"input":415,"output":7,"cacheRead":1000,"cacheWrite":0,"totalTokens":1422,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1796553754610,"responseId":"resp_2"}}`;

let tmp: string | null = null;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

describe("Pi 0.73.1's screens", () => {
  it.each([
    ['pi-working', 'working'],
    ['pi-idle-after-answer', 'waiting'],
    ['pi-retrying-429', 'working'],
    ['pi-gave-up-429', 'error'],
  ] as const)('%s reads as %s', (fixture, activity) => {
    expect(detectActivity(pi, screen(fixture))).toBe(activity);
  });

  it("does not hold an earlier turn's error once a later prompt is answered", () => {
    const gaveUp = screen('pi-gave-up-429');
    const rule = gaveUp.indexOf('─'.repeat(20));
    const later = `${gaveUp.slice(0, rule)} go on\n\n stand-in reply 5\n\n${gaveUp.slice(rule)}`;
    expect(detectActivity(pi, later)).toBe('waiting');
  });

  it('never reads needs-input: Pi asks no permission', () => {
    expect(pi.patterns.needsInput).toEqual([]);
  });
});

describe("Pi 0.73.1's extension", () => {
  const place = { script: '/m/hooks/report.sh', spoolDir: '/m/hooks/n1', settingsFile: '/m/hooks/n1.json', pluginFile: '/m/hooks/n1.mjs', pluginDir: '/m/hooks/n1.plugin' };

  it("is a module in Mori's home named with -e, its spool and session dirs in it", () => {
    const layer = hookLayer(pi, ['--session', '/a/x.jsonl'], place, { PI_CODING_AGENT_DIR: '/a' });
    expect(layer?.args).toEqual(['--session', '/a/x.jsonl', '-e', '/m/hooks/n1.mjs']);
    expect(layer?.env).toEqual({ PI_TELEMETRY: '0', PI_SKIP_VERSION_CHECK: '1' });
    expect(hookLayer(pi, [], place, { PI_TELEMETRY: '1' })?.env).toEqual({ PI_SKIP_VERSION_CHECK: '1' });
    expect(layer?.files[0]?.path).toBe('/m/hooks/n1.mjs');
    expect(layer?.files[0]?.text).toContain('const dir = "/m/hooks/n1";');
    expect(layer?.files[0]?.text).toContain('const sessions = "/a/sessions/mori";');
  });

  it('reports its events as activities and the session file it is in', () => {
    expect(hookReport(pi, 'Busy', {}).activity).toBe('working');
    expect(hookReport(pi, 'Idle', {}).activity).toBe('waiting');
    expect(hookReport(pi, 'Failed', {}).activity).toBeNull();
    expect(hookReport(pi, 'SessionEnd', {}).activity).toBeNull();
    expect(hookReport(pi, 'SessionStart', { session_id: ID, source: 'startup' })).toEqual({ activity: 'waiting', agentSession: { id: ID, source: 'startup' } });
    expect(hookReport(pi, 'SessionStart', { session_id: '../../etc/passwd', source: 'new' })).toEqual({ activity: 'waiting' });
  });
});

describe("Pi's launches and records", () => {
  const env = { MORI_AGENT_BIN_PI: '/bin/pi', PI_CODING_AGENT_DIR: '/home/p/.pi/agent' };

  it('starts and resumes with the session file Mori names, the prompt never read as an option or a file', () => {
    const fresh = pi.newSession({ cwd: '/p', prompt: '-read the state files', newAgentSessionId: ID, env });
    expect(fresh.ok && fresh.value).toEqual({ file: '/bin/pi', args: ['--session', `/home/p/.pi/agent/sessions/mori/${ID}.jsonl`, ' -read the state files'], cwd: '/p', agentSessionId: ID, typePrompt: null });
    const at = pi.newSession({ cwd: '/p', prompt: '@notes.md', newAgentSessionId: ID, env });
    expect(at.ok && at.value.args[2]).toBe(' @notes.md');
    const resumed = pi.resumeSession({ cwd: '/p', agentSessionId: ID, prompt: 'go on', env });
    expect(resumed.ok && resumed.value.args).toEqual(['--session', `/home/p/.pi/agent/sessions/mori/${ID}.jsonl`, 'go on']);
    expect(pi.resumeSession({ cwd: '/p', agentSessionId: null, prompt: null, env }).ok).toBe(false);
    const forged = pi.resumeSession({ cwd: '/p', agentSessionId: '../../../etc/x', prompt: null, env });
    expect(!forged.ok && forged.message).toContain('not put on the command line');
  });

  it('finds its session file in its agent dir, resumable once it holds a message', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-pi-'));
    const e = { PI_CODING_AGENT_DIR: path.join(tmp, 'agent') };
    const ref = { agentSessionId: ID, cwd: tmp };
    expect(await pi.transcriptExists(ref, e)).toBe(false);
    const dir = path.join(tmp, 'agent', 'sessions', 'mori');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${ID}.jsonl`), HEADER);
    expect(await pi.transcriptExists(ref, e)).toBe(false);
    writeFileSync(path.join(dir, `${ID}.jsonl`), `${ANSWER}\n`, { flag: 'a' });
    expect(await pi.transcriptExists(ref, e)).toBe(true);
    expect(await (pi.usage as RecordUsageSource | undefined)?.file(ref, e)).toBe(path.join(dir, `${ID}.jsonl`));
    expect(pi.configPaths?.(e)).toEqual([path.join(tmp, 'agent')]);
  });

  it('counts each answer once, a failed request not at all', () => {
    const p = piUsageParser();
    expect(p.line(ANSWER)).toEqual({ atMs: Date.parse('2026-12-06T10:42:54.663Z'), model: 'pi-stand-in', input: 415, output: 7, cacheRead: 1000, cacheWrite: 0, contextTokens: 1415, contextWindow: null });
    expect(p.line(ANSWER)).toBeNull();
    const failed = ANSWER.replace('"ecb0bcef"', '"f0"').replace(/"usage":\{[^}]*\{[^}]*\}\}/, '"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}}');
    expect(p.line(failed)).toBeNull();
    expect(p.line('{"type":"message","id":"u","message":{"role":"user","usage":{"input":3}}}')).toBeNull();
    expect(p.line('{"type":"message","id":"z","message":')).toBeNull();
  });
});
