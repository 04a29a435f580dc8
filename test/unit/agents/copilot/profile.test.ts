// GitHub Copilot CLI's profile against what the real 1.0.102 showed and wrote (screens in
// test/support/fixtures/agent-screens/copilot-*.txt, hook payloads and event lines as it wrote them):
// its screens read as working / waiting / needs-input / error, its rate-limit line and its events
// file's rate_limit error as a usage limit, its hooks plugin and reports, its launch lines and usage.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import type { RecordUsageSource } from '../../../../main/agents/usage/usage-record.js';
import { currentTurnText, detectActivity } from '../../../../main/agents/screen-activity.js';
import { screenUsageLimit } from '../../../../main/agents/usage-limit/limit-detect.js';
import { hookReport } from '../../../../main/agents/hooks/hook-events.js';
import { hookLayer } from '../../../../main/agents/hooks/hook-layers.js';
import { copilotEventsUsageLimit } from '../../../../main/agents/copilot/limits.js';
import { copilotUsageParser } from '../../../../main/agents/copilot/usage.js';

const copilot = PROFILES.copilot;
const screen = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');
const ID = '22222222-2222-4333-8444-555555555555';
const CAPTURED = Date.parse('2026-12-06T10:49:27Z');
const LIMIT_MESSAGE = 'Failed to get response from the AI model; retried 5 times (total retry wait time: 54.97 seconds) Last error: 429 The usage limit has been reached';

let tmp: string | null = null;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

describe("Copilot CLI 1.0.102's screens", () => {
  it.each([
    ['copilot-working', 'working'],
    ['copilot-idle-after-answer', 'waiting'],
    ['copilot-permission-prompt', 'needs-input'],
    ['copilot-folder-trust', 'needs-input'],
    ['copilot-rate-limited', 'error'],
  ] as const)('%s reads as %s', (fixture, activity) => {
    expect(detectActivity(copilot, screen(fixture))).toBe(activity);
  });

  it('reads its failed-after-retries 429 as a usage limit, with the reset the provider names', () => {
    const s = screenUsageLimit(copilot, currentTurnText(copilot.patterns, screen('copilot-rate-limited')), CAPTURED, 'UTC');
    expect(s?.text).toMatch(/^Failed to get response from the AI model; retried 5 times .*Last error: 429/);
    expect(s?.resetAtMs).toBeNull();
    const later = ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 54.97 seconds) Last error: 429 Rate limited, try again in 2 hours\n';
    expect(screenUsageLimit(copilot, later, CAPTURED, 'UTC')?.resetAtMs).toBe(CAPTURED + 2 * 3600_000);
    expect(screenUsageLimit(copilot, " ✗ You've reached your weekly rate limit. Learn More\n", CAPTURED, 'UTC')?.text).toContain('weekly rate limit');
    // Another failure, an earlier turn's limit, the words in a tool's output or typed by the person are not one.
    expect(screenUsageLimit(copilot, ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 5 seconds) Last error: 500 boom\n', CAPTURED, 'UTC')).toBeNull();
    expect(screenUsageLimit(copilot, currentTurnText(copilot.patterns, screen('copilot-idle-after-answer')), CAPTURED, 'UTC')).toBeNull();
    expect(screenUsageLimit(copilot, " $ Shell cat log\n   ✗ You've hit your rate limit.\n", CAPTURED, 'UTC')).toBeNull();
    expect(screenUsageLimit(copilot, " ❯ You've hit your rate limit?\n", CAPTURED, 'UTC')).toBeNull();
  });

  it("reads its events file's last rate_limit error as a usage limit, and not once it answered after", () => {
    const error = JSON.stringify({ type: 'session.error', data: { errorType: 'rate_limit', message: `${LIMIT_MESSAGE}; try again in 30 minutes`, statusCode: 429 }, id: 'e1', timestamp: '2026-12-06T10:49:27.842Z' });
    const s = copilotEventsUsageLimit(`{"type":"user.message","data":{}}\n${error}\n`, CAPTURED, 'UTC');
    expect(s).toMatchObject({ profile: 'copilot', source: 'transcript', resetAtMs: Date.parse('2026-12-06T10:49:27.842Z') + 30 * 60_000 });
    expect(copilotEventsUsageLimit(`${error}\n{"type":"assistant.message","data":{}}\n`, CAPTURED, 'UTC')).toBeNull();
    expect(copilotEventsUsageLimit(error.replace('rate_limit', 'model_call'), CAPTURED, 'UTC')).toBeNull();
    expect(copilotEventsUsageLimit('{"type":"session.error",', CAPTURED, 'UTC')).toBeNull();
  });
});

describe("Copilot CLI 1.0.102's hooks", () => {
  const base = { sessionId: ID, timestamp: 1796553771793, cwd: '/p' };
  it('report its events as activities and its sessionStart id', () => {
    expect(hookReport(copilot, 'sessionStart', { ...base, source: 'new', initialPrompt: 'hi' })).toEqual({ activity: 'waiting', agentSession: { id: ID, source: 'startup' } });
    expect(hookReport(copilot, 'sessionStart', { ...base, source: 'resume' }).agentSession).toEqual({ id: ID, source: 'resume' });
    expect(hookReport(copilot, 'userPromptSubmitted', { ...base, prompt: 'hi' }).activity).toBe('working');
    expect(hookReport(copilot, 'postToolUse', { ...base, toolName: 'bash' }).activity).toBe('working');
    expect(hookReport(copilot, 'permissionRequest', { ...base, hookName: 'permissionRequest', toolName: 'bash' }).activity).toBe('needs-input');
    expect(hookReport(copilot, 'notification', { ...base, notification_type: 'permission_prompt', title: 'Permission needed' }).activity).toBe('needs-input');
    expect(hookReport(copilot, 'agentStop', { ...base, transcriptPath: '/h/x/events.jsonl', stopReason: 'end_turn' }).activity).toBe('waiting');
    expect(hookReport(copilot, 'errorOccurred', { ...base, errorContext: 'model_call', recoverable: true }).activity).toBeNull();
    expect(hookReport(copilot, 'sessionStart', { ...base, sessionId: '../../etc' })).toEqual({ activity: 'waiting' });
    expect(hookReport(copilot, 'sessionStart', 'not an object')).toEqual({ activity: 'waiting' });
  });

  it("are a plugin directory Mori owns, with client telemetry and the update download off", () => {
    const place = { script: '/m/hooks/report.sh', spoolDir: '/m/hooks/n1', settingsFile: '/m/hooks/n1.json', pluginFile: '/m/hooks/n1.mjs', pluginDir: '/m/hooks/n1.plugin' };
    const layer = hookLayer(copilot, ['--session-id', ID], place, {});
    expect(layer?.args).toEqual(['--plugin-dir', '/m/hooks/n1.plugin', '--disable-client-telemetry', '--session-id', ID]);
    expect(layer?.env).toEqual({ COPILOT_AUTO_UPDATE: 'false' });
    expect(layer?.files.map((f) => f.path)).toEqual(['/m/hooks/n1.plugin/plugin.json', '/m/hooks/n1.plugin/hooks/hooks.json']);
    const hooks = JSON.parse(layer?.files[1]?.text ?? '{}') as { version: number; hooks: Record<string, { type: string; bash: string }[]> };
    expect(hooks.version).toBe(1);
    expect(Object.keys(hooks.hooks)).toEqual(expect.arrayContaining(['sessionStart', 'userPromptSubmitted', 'permissionRequest', 'notification', 'agentStop']));
    expect(hooks.hooks['agentStop']?.[0]?.bash).toContain("'/m/hooks/n1'");
  });
});

describe("Copilot CLI's launches and records", () => {
  it('starts with its own session id and resumes by that id, never the latest', () => {
    const env = { MORI_AGENT_BIN_COPILOT: '/bin/copilot' };
    const fresh = copilot.newSession({ cwd: '/p', prompt: '-read the state files', newAgentSessionId: ID, env });
    expect(fresh.ok && fresh.value.args).toEqual(['--session-id', ID, '-i', ' -read the state files']);
    const resumed = copilot.resumeSession({ cwd: '/p', agentSessionId: ID, prompt: 'go on', env });
    expect(resumed.ok && resumed.value.args).toEqual([`--resume=${ID}`, '-i', 'go on']);
    expect(copilot.resumeSession({ cwd: '/p', agentSessionId: null, prompt: null, env }).ok).toBe(false);
    expect(copilot.resumeSession({ cwd: '/p', agentSessionId: '--continue', prompt: null, env }).ok).toBe(false);
  });

  it('gives a sandbox its home and the caches it unpacks its package into', () => {
    expect(copilot.configPaths?.({ HOME: '/h' })).toEqual(['/h/.copilot', '/h/.cache/copilot']);
    expect(copilot.configPaths?.({ HOME: '/h', COPILOT_HOME: '/c', XDG_CACHE_HOME: '/x', COPILOT_PKG_CACHE_HOME: '/p' })).toEqual(['/c', '/x/copilot', '/p']);
    expect(copilot.configPaths?.({ HOME: '/h', COPILOT_CACHE_HOME: '/k' })).toEqual(['/h/.copilot', '/k']);
  });

  it('finds its events under COPILOT_HOME, resumable once they hold a prompt', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-copilot-'));
    const env = { COPILOT_HOME: path.join(tmp, 'ch') };
    const ref = { agentSessionId: ID, cwd: '/p' };
    expect(await copilot.transcriptExists(ref, env)).toBe(false);
    const dir = path.join(tmp, 'ch', 'session-state', ID);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'events.jsonl'), `{"type":"session.start","data":{"sessionId":"${ID}"},"id":"a","timestamp":"t","parentId":null}\n`);
    expect(await copilot.transcriptExists(ref, env)).toBe(false);
    writeFileSync(path.join(dir, 'events.jsonl'), '{"type":"user.message","data":{"content":"hi"},"id":"b","timestamp":"t","parentId":"a"}\n', { flag: 'a' });
    expect(await copilot.transcriptExists(ref, env)).toBe(true);
    expect(await (copilot.usage as RecordUsageSource | undefined)?.file(ref, env)).toBe(path.join(dir, 'events.jsonl'));
    expect(await copilot.transcriptExists({ agentSessionId: '../x', cwd: '/p' }, env)).toBe(false);
  });

  it('counts each request of its events once, the cached part apart and the reasoning inside the output', () => {
    const line = '{"type":"session.usage_record","data":{"usage":{"model":"gpt-5.4","inputTokens":15518,"outputTokens":7,"cacheReadTokens":10862,"cacheWriteTokens":0,"reasoningTokens":2,"cost":0.0,"maxPromptTokens":922000,"apiCallId":"resp_2"}},"id":"0f5aa0db-e465-4ecc-a934-5beea0db11b7","timestamp":"2026-12-06T10:43:13.502Z","parentId":"x"}';
    const p = copilotUsageParser();
    expect(p.line(line)).toEqual({ atMs: Date.parse('2026-12-06T10:43:13.502Z'), model: 'gpt-5.4', input: 4656, output: 7, cacheRead: 10862, cacheWrite: 0, contextTokens: 15518, contextWindow: 922000 });
    expect(p.line(line)).toBeNull();
    expect(p.line('{"type":"assistant.message","data":{}}')).toBeNull();
    expect(p.line('{"type":"session.usage_record","data":')).toBeNull();
  });
});
