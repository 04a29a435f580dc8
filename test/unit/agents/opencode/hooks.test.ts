// opencode's hook layer (DESIGN.md §4 "Hooks"): Mori's plugin named in OPENCODE_CONFIG_CONTENT, joined
// with the person's own content there (kept whole) or left off when theirs cannot take it; the real
// plugin module, imported by Node and fed opencode 1.18.33's event shapes, writing calls the real
// spool reader takes in order; and what each of its events reports.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { hookReport } from '../../../../main/agents/hooks/hook-events.js';
import { hookLayer } from '../../../../main/agents/hooks/hook-layers.js';
import { opencodeConfigContent, opencodePluginText } from '../../../../main/agents/opencode/hooks.js';
import { HookSpool, type HookCall } from '../../../../main/supervisor/signals/hook-spool.js';
import { until } from '../../../../testkit/until.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'mori-oc-hooks-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const PLUGIN = "/h/it's hooks/n.mjs";
const SPEC = pathToFileURL(PLUGIN).href;

describe("opencode's layer", () => {
  it("names Mori's plugin in OPENCODE_CONFIG_CONTENT, adding it to the person's own content and keeping the rest", () => {
    expect(JSON.parse((opencodeConfigContent(PLUGIN, {}) as { value: string }).value)).toEqual({ plugin: [SPEC] });
    expect(SPEC).toBe('file:///h/it\'s%20hooks/n.mjs');
    const theirs = JSON.stringify({ plugin: ['opencode-wakatime'], permission: { bash: 'ask' }, model: 'x/y' });
    expect(JSON.parse((opencodeConfigContent(PLUGIN, { OPENCODE_CONFIG_CONTENT: theirs }) as { value: string }).value)).toEqual({ plugin: ['opencode-wakatime', SPEC], permission: { bash: 'ask' }, model: 'x/y' });
    expect(JSON.parse((opencodeConfigContent(PLUGIN, { OPENCODE_CONFIG_CONTENT: '{"model":"x/y"}' }) as { value: string }).value)).toEqual({ model: 'x/y', plugin: [SPEC] });
    expect(opencodeConfigContent(PLUGIN, { OPENCODE_CONFIG_CONTENT: '{ // theirs\n }' })).toEqual({ off: expect.stringContaining('is not a JSON object') as string });
    expect(opencodeConfigContent(PLUGIN, { OPENCODE_CONFIG_CONTENT: '[1]' })).toEqual({ off: expect.stringContaining('is not a JSON object') as string });
    expect(opencodeConfigContent(PLUGIN, { OPENCODE_CONFIG_CONTENT: '{"plugin":"one"}' })).toEqual({ off: expect.stringContaining('"plugin" that is not a list') as string });
    // The person runs opencode without external plugins: Mori's would not load either.
    expect(opencodeConfigContent(PLUGIN, { OPENCODE_PURE: 'true' })).toEqual({ off: expect.stringContaining('OPENCODE_PURE is set') as string });
    expect(opencodeConfigContent(PLUGIN, { OPENCODE_PURE: '0' })).toEqual({ value: JSON.stringify({ plugin: [SPEC] }) });
  });

  it('is a plugin file and one variable; args untouched; off (nothing written) when their content cannot take it', () => {
    const place = { script: '/h/hooks/report.sh', spoolDir: '/h/hooks/n', settingsFile: '/h/hooks/n.json', pluginFile: PLUGIN, pluginDir: '/h/hooks/n.plugin' };
    const layer = hookLayer(PROFILES.opencode, ['--session', 'ses_x'], place, { HOME: '/h' });
    expect(layer?.args).toEqual(['--session', 'ses_x']);
    expect(layer?.env).toEqual({ OPENCODE_CONFIG_CONTENT: JSON.stringify({ plugin: [SPEC] }) });
    expect(layer?.files.map((f) => f.path)).toEqual([PLUGIN]);
    expect(layer?.files[0]?.text).toContain('const dir = "/h/hooks/n";');
    const off = hookLayer(PROFILES.opencode, [], place, { OPENCODE_CONFIG_CONTENT: 'not json' });
    expect(off?.off).toContain('OPENCODE_CONFIG_CONTENT');
    expect(off?.files).toEqual([]);
    expect(off?.env).toEqual({});
  });

  it("reports its plugin's events: a turn or an answer is working, a permission or question needs input, idle is waiting", () => {
    expect(hookReport(PROFILES.opencode, 'Busy', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.opencode, 'Answered', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.opencode, 'PermissionAsked', { session_id: 'ses_x' })).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.opencode, 'QuestionAsked', {})).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.opencode, 'Idle', null)).toEqual({ activity: 'waiting' });
    expect(hookReport(PROFILES.opencode, 'Stop', {})).toEqual({ activity: null });
  });
});

type Handler = (input: { event: { type: string; properties?: unknown } }) => Promise<void>;

describe("Mori's opencode plugin", () => {
  let spool: HookSpool | null = null;
  afterEach(() => spool?.close());

  it("spools Busy, PermissionAsked, Answered and Idle in order, once each change, no Idle for a subagent's session; the reader takes them", async () => {
    const dir = path.join(home, 'hooks', 'n');
    mkdirSync(dir, { recursive: true });
    const file = path.join(home, 'hooks', 'n.mjs');
    writeFileSync(file, opencodePluginText(dir));
    const mod = (await import(pathToFileURL(file).href)) as { MoriActivity: () => Promise<{ event: Handler }> };
    const { event } = await mod.MoriActivity();
    const send = (type: string, properties?: unknown): Promise<void> => event({ event: { type, properties } });
    const status = (sessionID: string, type: string): Promise<void> => send('session.status', { sessionID, status: { type } });

    await send('plugin.added', { id: 'x' });
    await status('ses_a', 'busy');
    await status('ses_a', 'busy');
    await send('session.created', { sessionID: 'ses_child', info: { id: 'ses_child', parentID: 'ses_a' } }); // a subagent's session
    await status('ses_child', 'busy');
    await status('ses_child', 'idle'); // the parent's turn goes on: not idle
    await send('session.idle', { sessionID: 'ses_child' });
    await send('permission.asked', { id: 'per_1', sessionID: 'ses_a', permission: 'bash' });
    await send('permission.replied', { sessionID: 'ses_a', requestID: 'per_1', reply: 'once' });
    await status('ses_a', 'retry');
    await status('ses_a', 'idle');
    await send('session.idle', { sessionID: 'ses_a' });
    await send('question.asked', { sessionID: 'ses_a' });
    await send('message.part.delta', 'not an object');
    await send('session.status', null);

    const calls: HookCall[] = [];
    spool = new HookSpool({ dir, onCall: (c) => calls.push(c), onProblem: (m) => calls.push({ event: `problem ${m}`, at: 0, payload: null }) });
    spool.start();
    await until('the calls read', () => calls.length >= 6, () => JSON.stringify(calls), 5_000);
    expect(calls.map((c) => c.event)).toEqual(['Busy', 'PermissionAsked', 'Answered', 'Busy', 'Idle', 'QuestionAsked']);
    expect(calls[1]?.payload).toEqual({ session_id: 'ses_a' });

    // Mori's dir gone (the run ended): a call is dropped, opencode's handler does not throw.
    rmSync(dir, { recursive: true });
    await expect(status('ses_a', 'busy')).resolves.toBeUndefined();
  });
});
