// Qwen Code's profile against what the real 0.24.4 showed and wrote (screens in
// test/support/fixtures/agent-screens/qwen-*.txt, hook payloads and a chat line as it wrote them):
// its screens read as working / waiting / needs-input / error, its quota message as a usage limit
// with the reset time the provider named, its hooks' reports, its launch lines and its usage record.
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
import { qwenHookUsageLimit } from '../../../../main/agents/qwen/limits.js';
import { qwenUsageParser } from '../../../../main/agents/qwen/usage.js';

const qwen = PROFILES.qwen;
const screen = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');
const ID = '31111111-2222-4333-8444-555555555555';
/** The quota screen was captured three hours before the reset its message names. */
const CAPTURED = Date.parse('2026-12-06T08:21:37Z');
const RESET = '2026-12-06T11:21:25.934Z';
/** Read to the second: a reset is waited out in minutes. */
const RESET_MS = Date.parse('2026-12-06T11:21:25Z');
const QUOTA = `Quota exhausted: Your quota has been exceeded; it will reset at ${RESET}.\n\nPlease retry after the reset time, or switch to another API key / auth method. (cause: insufficient_quota: 429 Your quota has been exceeded; it will reset at ${RESET}.)`;

let tmp: string | null = null;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

describe("Qwen Code 0.24.4's screens", () => {
  it.each([
    ['qwen-working', 'working'],
    ['qwen-idle-after-answer', 'waiting'],
    ['qwen-permission-prompt', 'needs-input'],
    ['qwen-quota-exhausted', 'error'],
  ] as const)('%s reads as %s', (fixture, activity) => {
    expect(detectActivity(qwen, screen(fixture))).toBe(activity);
  });

  it('reads its quota message as a usage limit resetting when the provider said', () => {
    const s = screenUsageLimit(qwen, currentTurnText(qwen.patterns, screen('qwen-quota-exhausted')), CAPTURED, 'UTC');
    expect(s?.text).toBe(`Quota exhausted: Your quota has been exceeded; it will reset at ${RESET}.`);
    expect(s?.resetAtMs).toBe(RESET_MS);
    // The quota of an earlier turn, above the latest prompt, is not this turn's.
    expect(screenUsageLimit(qwen, currentTurnText(qwen.patterns, screen('qwen-idle-after-answer')), CAPTURED, 'UTC')).toBeNull();
  });

  it('does not take the quota words inside a tool\'s output, or typed by the person, as its own', () => {
    const tool = '  ✓ Shell cat notes.txt\n    ✕ Quota exhausted: copied from a log\n';
    expect(screenUsageLimit(qwen, tool, CAPTURED, 'UTC')).toBeNull();
    expect(screenUsageLimit(qwen, '  > ✕ Quota exhausted: why?\n', CAPTURED, 'UTC')).toBeNull();
  });
});

describe("Qwen Code 0.24.4's hooks", () => {
  const base = { session_id: ID, transcript_path: `/h/.qwen/projects/-p/chats/${ID}.jsonl`, cwd: '/p', permission_mode: 'auto' };
  it('report its events as activities and its SessionStart id', () => {
    expect(hookReport(qwen, 'SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' })).toEqual({ activity: 'waiting', agentSession: { id: ID, source: 'startup' } });
    expect(hookReport(qwen, 'UserPromptSubmit', base).activity).toBe('working');
    expect(hookReport(qwen, 'PermissionRequest', { ...base, tool_name: 'run_shell_command' }).activity).toBe('needs-input');
    expect(hookReport(qwen, 'Notification', { ...base, notification_type: 'permission_prompt' }).activity).toBe('needs-input');
    expect(hookReport(qwen, 'Notification', { ...base, notification_type: 'idle_prompt' }).activity).toBe('waiting');
    expect(hookReport(qwen, 'Stop', base).activity).toBe('waiting');
    expect(hookReport(qwen, 'SessionStart', { ...base, session_id: '../../etc' })).toEqual({ activity: 'waiting' });
  });

  it('read a spent quota from StopFailure, and no other failure as one', () => {
    const payload = { ...base, hook_event_name: 'StopFailure', error: 'billing_error', error_details: QUOTA, last_assistant_message: QUOTA };
    const s = qwenHookUsageLimit('StopFailure', payload, CAPTURED, 'UTC');
    expect(s).toEqual({ profile: 'qwen', source: 'hook', resetAtMs: RESET_MS, text: `Quota exhausted: Your quota has been exceeded; it will reset at ${RESET}.` });
    expect(qwen.hooks?.usageLimit?.('StopFailure', { ...payload, error: 'rate_limit' }, CAPTURED, 'UTC')?.resetAtMs).toBe(RESET_MS);
    expect(qwenHookUsageLimit('StopFailure', { ...payload, error: 'server_error' }, CAPTURED, 'UTC')).toBeNull();
    expect(qwenHookUsageLimit('StopFailure', { ...payload, last_assistant_message: '[API Error: quota]' }, CAPTURED, 'UTC')).toBeNull();
    expect(qwenHookUsageLimit('Stop', payload, CAPTURED, 'UTC')).toBeNull();
    expect(qwenHookUsageLimit('StopFailure', 'not an object', CAPTURED, 'UTC')).toBeNull();
  });

  it("are a system-defaults file Mori owns, with telemetry and the update check off; never over the person's own", () => {
    const place = { script: '/m/hooks/report.sh', spoolDir: '/m/hooks/n1', settingsFile: '/m/hooks/n1.json', pluginFile: '/m/hooks/n1.mjs', pluginDir: '/m/hooks/n1.plugin' };
    const layer = hookLayer(qwen, ['--session-id', ID], place, {});
    expect(layer?.args).toEqual(['--session-id', ID]);
    expect(layer?.env).toEqual({ QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/m/hooks/n1.json' });
    const written = JSON.parse(layer?.files[0]?.text ?? '{}') as Record<string, Record<string, unknown>>;
    expect(layer?.files[0]?.path).toBe('/m/hooks/n1.json');
    expect(written['privacy']).toEqual({ usageStatisticsEnabled: false });
    expect(written['telemetry']).toEqual({ enabled: false });
    expect(written['general']).toEqual({ enableAutoUpdate: false });
    expect(Object.keys(written['hooks'] ?? {})).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'Stop', 'StopFailure', 'Notification', 'PermissionRequest']));
    const theirs = hookLayer(qwen, [], place, { QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/etc/theirs.json' });
    expect(theirs?.files).toEqual([]);
    expect(theirs?.off).toContain('/etc/theirs.json');
  });
});

describe("Qwen Code's launches and records", () => {
  it('starts with its own session id and resumes by that id, never the latest', () => {
    const env = { MORI_AGENT_BIN_QWEN: '/bin/qwen' };
    const fresh = qwen.newSession({ cwd: '/p', prompt: '-read the state files', newAgentSessionId: ID, env });
    expect(fresh.ok && fresh.value.args).toEqual(['--session-id', ID, '-i', ' -read the state files']);
    const resumed = qwen.resumeSession({ cwd: '/p', agentSessionId: ID, prompt: 'go on', env });
    expect(resumed.ok && resumed.value.args).toEqual(['--resume', ID, '-i', 'go on']);
    expect(qwen.resumeSession({ cwd: '/p', agentSessionId: null, prompt: null, env }).ok).toBe(false);
    expect(qwen.resumeSession({ cwd: '/p', agentSessionId: '--continue', prompt: null, env }).ok).toBe(false);
  });

  it('finds its chat under QWEN_HOME by the project dir, resumable once it holds a turn', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-qwen-'));
    const project = path.join(tmp, 'my proj');
    mkdirSync(project);
    const env = { QWEN_HOME: path.join(tmp, 'qh') };
    const ref = { agentSessionId: ID, cwd: project };
    expect(await qwen.transcriptExists(ref, env)).toBe(false);
    const chats = path.join(tmp, 'qh', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(path.join(chats, `${ID}.jsonl`), '{"uuid":"a","parentUuid":null,"sessionId":"x","timestamp":"t","type":"system","subtype":"ui_telemetry"}\n');
    expect(await qwen.transcriptExists(ref, env)).toBe(false);
    writeFileSync(path.join(chats, `${ID}.jsonl`), `{"uuid":"b","parentUuid":null,"sessionId":"${ID}","timestamp":"2026-12-06T08:19:31.634Z","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}\n`, { flag: 'a' });
    expect(await qwen.transcriptExists(ref, env)).toBe(true);
    expect(await (qwen.usage as RecordUsageSource | undefined)?.file(ref, env)).toBe(path.join(chats, `${ID}.jsonl`));
  });

  it('counts each answer of its chat once, the cached part apart and the reasoning inside the output', () => {
    const line = `{"uuid":"edaf318a","parentUuid":"c03b","sessionId":"${ID}","timestamp":"2026-12-06T08:19:32.430Z","type":"assistant","model":"qwen-stand-in","message":{"role":"model","parts":[{"text":"stand-in reply 2"}]},"usageMetadata":{"promptTokenCount":21365,"candidatesTokenCount":7,"thoughtsTokenCount":2,"totalTokenCount":21372,"cachedContentTokenCount":14955},"contextWindowSize":262144}`;
    const p = qwenUsageParser();
    expect(p.line(line)).toEqual({ atMs: Date.parse('2026-12-06T08:19:32.430Z'), model: 'qwen-stand-in', input: 6410, output: 7, cacheRead: 14955, cacheWrite: 0, contextTokens: 21365, contextWindow: 262144 });
    expect(p.line(line)).toBeNull();
    expect(p.line('{"uuid":"x","type":"user","usageMetadata":{}}')).toBeNull();
    expect(p.line('{"uuid":"y","type":"assistant","usageMetadata":')).toBeNull();
  });
});
