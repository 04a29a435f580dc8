// Agent hooks (DESIGN.md §4 "Hooks"): the real report script run by the real `sh` into real files,
// the spool reader against hostile entries (a symlink, a FIFO, a 100 MB file, bad JSON, a flood,
// forged ids), what each agent's events report, Gemini CLI's rule for its system-defaults file, and
// the activity rule — a hook's word is current at once and holds until the screen changes after it.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync, existsSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentActivity } from '../../../../common/agent-activity.js';
import { hookReport } from '../../../../main/agents/hooks/hook-events.js';
import { codexHookHash } from '../../../../main/agents/codex/hooks.js';
import { hookLayer } from '../../../../main/agents/hooks/hook-layers.js';
import { geminiDefaultsRefusal } from '../../../../main/agents/gemini/defaults-check.js';
import { ensureReportScript, REPORT_SCRIPT_TEXT } from '../../../../main/agents/hooks/report-script.js';
import { ActivityMonitor } from '../../../../main/supervisor/signals/activity-monitor.js';
import { HookSpool, type HookCall } from '../../../../main/supervisor/signals/hook-spool.js';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { FakeTerminal } from '../../../support/fakes/fake-backend.js';
import { ManualTime } from '../../../support/fakes/manual-time.js';
import { until } from '../../../../testkit/until.js';

let home: string;
let spool: string;
let script: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'mori-hooks-'));
  script = ensureReportScript(home);
  spool = path.join(home, 'hooks', 'a'.repeat(32));
  mkdirSync(spool);
});

/** Runs the script as an agent would: `sh report.sh <dir> <event> [args]`, `stdin` piped. Its exit code and ms. */
function report(dir: string, event: string, stdin: string | null, args: string[] = []): Promise<{ code: number | null; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const p = spawn('sh', [script, dir, event, ...args], { stdio: [stdin === null ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
    // A script that does not read (no spool dir) closes the pipe early, as with a real agent.
    p.stdin?.on('error', () => undefined);
    if (stdin !== null) p.stdin?.end(stdin);
    p.on('exit', (code) => resolve({ code, ms: performance.now() - t0 }));
  });
}

const calls = (): string[] => readdirSync(spool).sort();

describe('the report script', () => {
  it('is written into the home once and rewritten when its text differs', () => {
    expect(readFileSync(script, 'utf8')).toBe(REPORT_SCRIPT_TEXT);
    writeFileSync(script, 'echo tampered');
    expect(readFileSync(ensureReportScript(home), 'utf8')).toBe(REPORT_SCRIPT_TEXT);
  });

  it('writes one file per call, the stdin payload whole, named for the event', async () => {
    expect(await report(spool, 'Stop', '{"session_id":"x"}')).toMatchObject({ code: 0 });
    expect(await report(spool, 'PreToolUse', '{"tool_name":"Bash"}')).toMatchObject({ code: 0 });
    const names = calls();
    expect(names).toHaveLength(2);
    expect(names.map((n) => n.split('.')[1]).sort()).toEqual(['PreToolUse', 'Stop']);
    const stop = names.find((n) => n.endsWith('.Stop')) as string;
    expect(readFileSync(path.join(spool, stop), 'utf8')).toBe('{"session_id":"x"}');
  });

  it("takes codex's notify payload from its last argument, without reading stdin", async () => {
    expect(await report(spool, 'notify', null, ['{"type":"agent-turn-complete"}'])).toMatchObject({ code: 0 });
    const [name] = calls();
    expect(name).toMatch(/^[A-Za-z0-9]+\.notify$/);
    expect(readFileSync(path.join(spool, name as string), 'utf8')).toBe('{"type":"agent-turn-complete"}');
  });

  it('exits 0 at once, writing nothing, when the spool dir is gone or the event name is not a name', async () => {
    const gone = await report(path.join(home, 'hooks', 'missing'), 'Stop', '{}');
    expect(gone.code).toBe(0);
    expect(gone.ms).toBeLessThan(1_000);
    expect((await report(spool, '../x', '{}')).code).toBe(0);
    expect((await report(spool, '', '{}')).code).toBe(0);
    expect(calls()).toEqual([]);
    expect(existsSync(path.join(home, 'hooks', 'missing'))).toBe(false);
  });
});

/** A spool reader on `spool` collecting calls and problems. */
function reader(): { s: HookSpool; got: HookCall[]; problems: string[] } {
  const got: HookCall[] = [];
  const problems: string[] = [];
  const s = new HookSpool({ dir: spool, onCall: (c) => got.push(c), onProblem: (m) => problems.push(m) });
  return { s, got, problems };
}

describe('the spool reader', () => {
  let open: HookSpool | null = null;
  afterEach(() => open?.close());

  it('reads calls made before it started and calls made while it watches, oldest first, and deletes them', async () => {
    await report(spool, 'UserPromptSubmit', '{"prompt":"hi"}');
    const r = reader();
    open = r.s;
    r.s.start();
    await until('the earlier call', () => r.got.length === 1);
    await report(spool, 'PermissionRequest', '{"tool_name":"Bash"}');
    await until('the later call', () => r.got.length === 2);
    expect(r.got.map((c) => c.event)).toEqual(['UserPromptSubmit', 'PermissionRequest']);
    expect(r.got[0]?.payload).toEqual({ prompt: 'hi' });
    await until('the spool emptied', () => calls().length === 0);
  });

  it('refuses a symlink and a FIFO without following or blocking, keeps the event of a 100 MB or non-JSON call only', async () => {
    const secret = path.join(home, 'secret.json');
    writeFileSync(secret, '{"session_id":"11111111-1111-4111-8111-111111111111"}');
    symlinkSync(secret, path.join(spool, 'aaaa.SessionStart'));
    execFileSync('mkfifo', [path.join(spool, 'bbbb.Stop')]);
    writeFileSync(path.join(spool, 'cccc.PreToolUse'), '');
    truncateSync(path.join(spool, 'cccc.PreToolUse'), 100 * 1024 * 1024);
    writeFileSync(path.join(spool, 'dddd.Notification'), '{not json');
    writeFileSync(path.join(spool, 'weird name'), '{}');
    const r = reader();
    open = r.s;
    const t0 = performance.now();
    r.s.start();
    await until('the spool emptied', () => calls().length === 0);
    await r.s.idle();
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.got.map((c) => c.event).sort()).toEqual(['Notification', 'PreToolUse']);
    expect(r.got.every((c) => c.payload === null)).toBe(true);
    expect(r.problems.join('\n')).toMatch(/symbolic link/);
    expect(r.problems.join('\n')).toMatch(/(and 2 more refused)|not a regular file/);
    expect(readFileSync(secret, 'utf8')).toContain('1111'); // the target is untouched
  });

  it('takes a flood of 10,000 calls in passes while the event loop keeps turning', async () => {
    for (let i = 0; i < 10_000; i++) writeFileSync(path.join(spool, `f${i}.Stop`), '{}');
    const r = reader();
    open = r.s;
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const beat = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 5);
    r.s.start();
    await until('every flooded call read', () => r.got.length === 10_000, () => `${r.got.length} read`, 60_000);
    clearInterval(beat);
    expect(ticks).toBeGreaterThan(2);
    // A pass takes at most 64 files: the loop is never held for long (generous for a shared machine).
    expect(longest).toBeLessThan(1_000);
    expect(calls()).toEqual([]);
  }, 90_000);
});

describe('what a hook call reports', () => {
  const id = '0b5f6b1e-4c1a-4d2e-9f3a-5a6b7c8d9e0f';
  it('maps claude events to activities, SessionStart to its id, StopFailure to its raw payload', () => {
    expect(hookReport(PROFILES.claude, 'UserPromptSubmit', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.claude, 'PreToolUse', null)).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.claude, 'PermissionRequest', {})).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.claude, 'Notification', { notification_type: 'permission_prompt' })).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.claude, 'Notification', { notification_type: 'elicitation_dialog' })).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.claude, 'Notification', { notification_type: 'idle_prompt' })).toEqual({ activity: 'waiting' });
    expect(hookReport(PROFILES.claude, 'Notification', { notification_type: 'auth_success' })).toEqual({ activity: null });
    expect(hookReport(PROFILES.claude, 'Stop', {})).toEqual({ activity: 'waiting' });
    const failure = { hook_event_name: 'StopFailure', error: 'rate_limit' };
    expect(hookReport(PROFILES.claude, 'StopFailure', failure)).toEqual({ activity: 'error', stopFailure: failure });
    expect(hookReport(PROFILES.claude, 'SessionStart', { session_id: id, source: 'clear' })).toEqual({ activity: 'waiting', agentSession: { id, source: 'clear' } });
    expect(hookReport(PROFILES.claude, 'SessionEnd', { reason: 'clear' })).toEqual({ activity: null });
  });

  it('drops an agent session id that is not a UUID (it would reach a command line)', () => {
    for (const forged of ['--dangerously-skip-permissions', '$(touch /tmp/x)', 'a'.repeat(5000), 42]) {
      expect(hookReport(PROFILES.claude, 'SessionStart', { session_id: forged, source: 'clear' })).toEqual({ activity: 'waiting' });
    }
  });

  it('maps gemini and codex events', () => {
    expect(hookReport(PROFILES.gemini, 'BeforeAgent', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.gemini, 'Notification', { notification_type: 'ToolPermission' })).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.gemini, 'AfterAgent', {})).toEqual({ activity: 'waiting' });
    expect(hookReport(PROFILES.codex, 'UserPromptSubmit', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.codex, 'PreToolUse', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.codex, 'PermissionRequest', {})).toEqual({ activity: 'needs-input' });
    expect(hookReport(PROFILES.codex, 'PostToolUse', {})).toEqual({ activity: 'working' });
    expect(hookReport(PROFILES.codex, 'Stop', {})).toEqual({ activity: 'waiting' });
    expect(hookReport(PROFILES.codex, 'Interrupt', {})).toEqual({ activity: 'waiting' });
    // Codex runs SessionStart as a thread's first turn starts: its id, no activity.
    expect(hookReport(PROFILES.codex, 'SessionStart', { session_id: id, source: 'startup' })).toEqual({ activity: null, agentSession: { id, source: 'startup' } });
    expect(hookReport(PROFILES.codex, 'SessionStart', { session_id: '$(touch /tmp/x)', source: 'startup' })).toEqual({ activity: null });
    expect(hookReport(PROFILES.codex, 'notify', { type: 'agent-turn-complete' })).toEqual({ activity: 'waiting' });
    expect(hookReport(PROFILES.codex, 'notify', { type: 'something-else' })).toEqual({ activity: null });
    expect(hookReport(PROFILES.shell, 'Stop', {})).toEqual({ activity: null });
  });

  it("gives each agent its layer without touching the person's settings", () => {
    const place = { script: '/h/hooks/report.sh', spoolDir: "/h/it's/n", settingsFile: '/h/hooks/n.json', pluginFile: "/h/hooks/it's n.mjs", pluginDir: "/h/hooks/it's n.plugin" };
    const claude = hookLayer(PROFILES.claude, ['--resume', 'x'], place);
    expect(claude?.args).toEqual(['--settings', '/h/hooks/n.json', '--resume', 'x']);
    const settings = JSON.parse(claude?.files[0]?.text ?? '{}') as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(settings.hooks['Stop']?.[0]?.hooks[0]?.command).toBe(`sh '/h/hooks/report.sh' '/h/it'\\''s/n' Stop`);
    expect(hookLayer(PROFILES.gemini, ['--resume', 'x'], place)?.env).toEqual({ GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/h/hooks/n.json' });
    const codex = hookLayer(PROFILES.codex, ['resume', '--no-daemon', 'x'], place)?.args ?? [];
    expect(codex.slice(0, 3)).toEqual(['resume', '--config', `hooks.SessionStart=[{hooks=[{type="command",command="sh '/h/hooks/report.sh' '/h/it'\\\\''s/n' SessionStart",timeout=3}]}]`]);
    expect(codex.slice(-2)).toEqual(['--no-daemon', 'x']);
    expect(codex.filter((a) => a.startsWith('notify'))).toEqual([]);
    expect(codex.at(-3)).toContain(`"/<session-flags>/config.toml:session_start:0:0"={trusted_hash="sha256:`);
    // The hash Codex 0.171.0's own `hooks/list` gave this hook as its currentHash.
    const handler = { type: 'command', command: 'sh /x/report.sh /x/spool SessionStart', timeout: 10, async: false } as const;
    expect(codexHookHash('session_start', handler)).toBe('sha256:fd6be8f614e89fb32c17dc86d6fa8503e1ac6a99ee9a8112cb4c5c92e6a1f9cf');
    expect(hookLayer(PROFILES.shell, [], place)).toBeNull();
  });

  it('says why Gemini CLI would skip a system-defaults file: the nearest directory above it not root-owned and closed to others', () => {
    const open = path.join(home, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const file = path.join(open, 'n.json');
    writeFileSync(file, '{}', { mode: 0o600 });
    // Run as root: `open` is writable by others; run as anyone else: `open` is theirs, not root's.
    expect(geminiDefaultsRefusal(file)).toMatch(new RegExp(`^${open} is (writable by group or others|not owned by root)`));
    // A file Gemini would read: root's, in root's directories no one else may write.
    expect(geminiDefaultsRefusal('/etc/passwd')).toBeNull();
  });
});

describe('the activity rule', () => {
  function monitor(): { m: ActivityMonitor; t: FakeTerminal; time: ManualTime; seen: AgentActivity[] } {
    const time = new ManualTime();
    const t = new FakeTerminal('s', 1, { id: 's', command: 'x', args: [], cwd: '/', env: {}, cols: 80, rows: 24, transcriptDir: null });
    const seen: AgentActivity[] = [];
    const m = new ActivityMonitor(t, { patterns: PROFILES.claude.patterns, clock: time, scheduler: time, onTransition: (x) => seen.push(x.to) });
    return { m, t, time, seen };
  }
  const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

  it("makes a hook's word current at once and keeps it while the screen has not changed since", async () => {
    const { m, t, time, seen } = monitor();
    t.output('esc to interrupt\n');
    m.report('needs-input');
    expect(m.current).toBe('needs-input');
    expect(seen).toEqual(['needs-input']);
    time.advance(5_000); // the read of the earlier output comes after the hook: it does not undo it
    await flush();
    time.advance(5_000);
    expect(m.current).toBe('needs-input');
  });

  it('lets the screen win after a later change that says something (an Esc-interrupt fires no hook)', async () => {
    const { m, t, time } = monitor();
    m.report('working');
    t.output('\x1b[2J? for shortcuts\n');
    time.advance(300);
    await flush();
    time.advance(2_000);
    expect(m.current).toBe('waiting');
  });

  it('lets the screen decide over a hook made before the latest output and delivered after it (a busy machine)', async () => {
    const { m, t, time, seen } = monitor();
    const madeAt = Date.now() - 1_000; // the prompt was submitted: "working"
    t.output('\x1b[2J? for shortcuts\n'); // the agent is already back at its prompt
    m.report('working', madeAt); // the hook's call is read only now: current at once, as every hook
    expect(m.current).toBe('working');
    time.advance(300);
    await flush();
    time.advance(2_000);
    expect(m.current).toBe('waiting'); // the screen, newer than the hook, says so
    expect(seen).toEqual(['working', 'waiting']);
    // One made after the latest output still counts at once.
    m.report('needs-input', Date.now() + 1_000);
    expect(m.current).toBe('needs-input');
  });

  it('counts awake time only toward the settle: a spinner seen just before a sleep is not made current by it', async () => {
    const { m, t, time, seen } = monitor();
    t.redraw('? for shortcuts\n');
    time.advance(300);
    await flush();
    time.advance(2_000);
    expect(m.current).toBe('waiting');
    t.redraw('✻ Working… (esc to interrupt)\n');
    time.advance(300);
    await flush(); // read: "working" is pending
    time.sleep(10_000);
    // At the wake the agent repaints its spinner once: still only 0.4 s of awake time seen.
    t.redraw('✻ Working… (esc to interrupt)\n');
    time.advance(300);
    await flush();
    expect(m.current).toBe('waiting');
    // It was done: its prompt comes back, and "working" never became current.
    t.redraw('? for shortcuts\n');
    time.advance(300);
    await flush();
    time.advance(2_000);
    expect(m.current).toBe('waiting');
    expect(seen).toEqual(['waiting']);
  });

  it('keeps the hook word when the later screen says nothing', async () => {
    const { m, t, time } = monitor();
    m.report('needs-input');
    t.output('some unrelated text\n');
    time.advance(300);
    await flush();
    time.advance(2_000);
    expect(m.current).toBe('needs-input');
  });
});
