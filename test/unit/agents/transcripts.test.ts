// Where agents keep their own sessions (DESIGN.md §5), exercised on real files laid out as each CLI
// lays them out (observed with Claude Code 2.1.197, codex-cli 0.171.0, Gemini CLI 0.61.0), plus
// the first prompt's instructions about the state files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeProjectDirName, claudeTranscriptPath } from '../../../main/agents/claude/transcript.js';
import { codexRolloutExists, findCodexSession, parseCodexExitId } from '../../../main/agents/codex/rollouts.js';
import { geminiChatExists } from '../../../main/agents/gemini/chats.js';
import { findClaudeStatus, findClaudeStatusUnder, readClaudeStatusByPid } from '../../../main/agents/claude/session-status.js';
import { innerPidsUnder } from '../../../main/os/process-tree.js';
import { firstPrompt, stateFilePaths } from '../../../main/agents/first-prompt.js';
import { PROFILES } from '../../../main/agents/profiles.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
let tmp: string;
let env: Record<string, string>;
let project: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-agents-'));
  env = { HOME: path.join(tmp, 'home') };
  project = path.join(tmp, 'my proj.v2');
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('claude', () => {
  it('mangles the cwd: each non-alphanumeric char becomes "-" (as in -tmp-agent-screens-proj)', () => {
    expect(claudeProjectDirName('/tmp/agent-screens/proj')).toBe('-tmp-agent-screens-proj');
    expect(claudeProjectDirName('/home/me/my proj.v2')).toBe('-home-me-my-proj-v2');
    const long = claudeProjectDirName(`/${'a'.repeat(250)}`);
    expect(long.startsWith(`-${'a'.repeat(199)}-`)).toBe(true);
    expect(long.length).toBeGreaterThan(201);
  });

  it('finds the transcript under CLAUDE_CONFIG_DIR, defaulting to ~/.claude', async () => {
    const ref = { agentSessionId: UUID, cwd: project };
    expect(await PROFILES.claude.transcriptExists(ref, env)).toBe(false);
    const file = claudeTranscriptPath(env, project, UUID);
    expect(file).toBe(path.join(env.HOME as string, '.claude', 'projects', claudeProjectDirName(project), `${UUID}.jsonl`));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{}\n');
    expect(await PROFILES.claude.transcriptExists(ref, env)).toBe(true);
    const custom = { ...env, CLAUDE_CONFIG_DIR: path.join(tmp, 'cfg') };
    expect(await PROFILES.claude.transcriptExists(ref, custom)).toBe(false);
    expect(await PROFILES.claude.transcriptExists({ agentSessionId: null, cwd: project }, env)).toBe(false);
  });

  it('reads sessions/<pid>.json, by pid or by session id', async () => {
    const dir = path.join(env.HOME as string, '.claude', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '4242.json'), JSON.stringify({ pid: 4242, sessionId: UUID, cwd: project, status: 'waiting' }));
    writeFileSync(path.join(dir, '4343.json'), '{"pid": 4343, "sta'); // mid-write: ignored
    // When the file was written: what it says is no newer than that.
    const written = new Date('2026-11-30T08:00:00.250Z');
    utimesSync(path.join(dir, '4242.json'), written, written);
    expect(await readClaudeStatusByPid(env, 4242)).toEqual({ pid: 4242, sessionId: UUID, cwd: project, status: 'waiting', statusUpdatedAt: null, writtenAtMs: written.getTime() });
    expect(await readClaudeStatusByPid(env, 4343)).toBeNull();
    expect((await findClaudeStatus(env, UUID))?.status).toBe('waiting');
    expect(await findClaudeStatus(env, '11111111-2222-4333-8444-555555555555')).toBeNull();
  });

  it('a FIFO or a directory planted among the status files is passed over at once, never waited on', async () => {
    const dir = path.join(env.HOME as string, '.claude', 'sessions');
    mkdirSync(dir, { recursive: true });
    // Read in name order: the FIFO and the directory come before the real file.
    execFileSync('mkfifo', [path.join(dir, '1000.json')]);
    mkdirSync(path.join(dir, '1001.json'));
    writeFileSync(path.join(dir, '4242.json'), JSON.stringify({ pid: 4242, sessionId: UUID, status: 'idle' }));
    expect(await readClaudeStatusByPid(env, 1000)).toBeNull();
    expect(await readClaudeStatusByPid(env, 1001)).toBeNull();
    expect((await findClaudeStatus(env, UUID))?.pid).toBe(4242);
    // Under this process (a FIFO named for it): nothing, at once.
    rmSync(path.join(dir, '4242.json'));
    execFileSync('mkfifo', [path.join(dir, `${process.pid}.json`)]);
    expect(await findClaudeStatusUnder(env, process.ppid, innerPidsUnder)).toBeNull();
  });

  it("finds the status file of a claude under the terminal's process, whatever conversation it names; not another's, nor one naming another pid", async () => {
    const dir = path.join(env.HOME as string, '.claude', 'sessions');
    mkdirSync(dir, { recursive: true });
    // This test process stands in for the claude under the terminal (its parent, the root).
    const root = process.ppid;
    const other = '11111111-2222-4333-8444-555555555555';
    writeFileSync(path.join(dir, '1.json'), JSON.stringify({ pid: 1, sessionId: other, status: 'busy' })); // not under root
    // Named for a process under root, but its content is another process's (copied there): ignored.
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ pid: 4242, sessionId: other, status: 'busy' }));
    expect(await findClaudeStatusUnder(env, root, innerPidsUnder)).toBeNull();
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: UUID, status: 'idle' }));
    expect((await findClaudeStatusUnder(env, root, innerPidsUnder))?.sessionId).toBe(UUID);
    expect(await findClaudeStatusUnder(env, process.pid + 1_000_000, innerPidsUnder)).toBeNull();
  });
});

describe('codex', () => {
  function rollout(id: string, cwd: string, at: Date): string {
    const pad = (n: number): string => String(n).padStart(2, '0');
    const dir = path.join(env.HOME as string, '.codex', 'sessions', String(at.getFullYear()), pad(at.getMonth() + 1), pad(at.getDate()));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `rollout-${at.toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`);
    // The real first line: session_meta with id, cwd, and the model's long base instructions.
    const meta = { timestamp: at.toISOString(), type: 'session_meta', payload: { id, base_instructions: { text: 'x"cwd":"/elsewhere"'.repeat(3000) }, cwd } };
    writeFileSync(file, `${JSON.stringify(meta)}\n{"type":"event_msg"}\n`);
    utimesSync(file, at, at);
    return file;
  }

  it('finds the newest rollout since the launch whose cwd matches', async () => {
    const start = Date.now() - 60_000;
    const mine = '01a22a40-cc5f-7c20-975e-fde24213c735';
    rollout('11111111-1111-4111-8111-111111111111', project, new Date(start - 3_600_000)); // before the launch
    rollout('22222222-2222-4222-8222-222222222222', path.join(tmp, 'other'), new Date(start + 20_000)); // other dir
    rollout(mine, project, new Date(start + 10_000));
    expect(await findCodexSession(env, project, start)).toBe(mine);
    expect(await PROFILES.codex.discoverSessionId({ cwd: project, startedAtMs: start }, env)).toBe(mine);
    expect(await findCodexSession({ ...env, CODEX_HOME: path.join(tmp, 'none') }, project, start)).toBeNull();
    expect(await codexRolloutExists(env, mine)).toBe(true);
    expect(await PROFILES.codex.transcriptExists({ agentSessionId: '33333333-3333-4333-8333-333333333333', cwd: project }, env)).toBe(false);
  });

  it('takes the first session started since the launch, not one started earlier that is still being written', async () => {
    const start = Date.now() - 60_000;
    const running = rollout('44444444-4444-4444-8444-444444444444', project, new Date(start - 600_000));
    utimesSync(running, new Date(start + 30_000), new Date(start + 30_000)); // still written to after our launch
    const first = rollout('01a22d79-169a-7d70-9ddc-4c969971f764', project, new Date(start + 2_000));
    rollout('01a22d7a-c4dd-7373-bbab-a2dc1379f8da', project, new Date(start + 6_000));
    expect(await findCodexSession(env, project, start)).toBe('01a22d79-169a-7d70-9ddc-4c969971f764');
    // Another Mori session in the same directory already holds the first one: the next is ours.
    expect(await PROFILES.codex.discoverSessionId({ cwd: project, startedAtMs: start, taken: ['01A22D79-169A-7D70-9DDC-4C969971F764'] }, env)).toBe('01a22d7a-c4dd-7373-bbab-a2dc1379f8da');
    expect(first).toContain('01a22d79');
  });

  it('reads the id codex printed on exit (real exit screen)', async () => {
    const text = readFileSync(fileURLToPath(new URL('../../support/fixtures/agent-screens/codex-exit-no-daemon.txt', import.meta.url)), 'utf8');
    expect(parseCodexExitId(text)).toBe('01a22a40-cc5f-7c20-975e-fde24213c735');
    expect(parseCodexExitId('To reconnect, run:\n  codex resume 01A22A40-CC5F-7C20-975E-FDE24213C735\n')).toBe('01a22a40-cc5f-7c20-975e-fde24213c735');
    expect(parseCodexExitId('bye')).toBeNull();
    expect(await PROFILES.codex.discoverSessionId({ cwd: project, startedAtMs: Date.now(), exitText: text }, env)).toBe('01a22a40-cc5f-7c20-975e-fde24213c735');
  });
});

describe('gemini', () => {
  it('finds the chat in the project chats dir named in projects.json (and honours GEMINI_CLI_HOME)', async () => {
    const base = path.join(env.HOME as string, '.gemini');
    const chats = path.join(base, 'tmp', 'my-proj', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(path.join(base, 'projects.json'), JSON.stringify({ projects: { [project]: 'my-proj' } }));
    const ref = { agentSessionId: UUID, cwd: project };
    expect(await PROFILES.gemini.transcriptExists(ref, env)).toBe(false);
    // As Gemini CLI 0.61.0 writes it: the header, the session context as a `$set`, then the turns.
    const chat = path.join(chats, `session-2026-11-30T02-21-${UUID.slice(0, 8)}.jsonl`);
    const header = `${JSON.stringify({ sessionId: UUID, projectHash: 'ab', startTime: '2026-11-30T02:21:00.000Z', kind: 'main' })}\n`;
    const context = `${JSON.stringify({ $set: { messages: [{ id: 'c1', timestamp: '2026-11-30T02:21:00.001Z', type: 'user', content: [{ text: '<session_context>' }] }] } })}\n`;
    writeFileSync(chat, header + context);
    // Killed before its first turn was saved: Gemini cannot resume it (exit 42), so it does not count.
    expect(await geminiChatExists(env, project, UUID)).toBe(false);
    writeFileSync(chat, `${header}${context}${JSON.stringify({ id: 'm1', timestamp: '2026-11-30T02:21:01.000Z', type: 'user', content: [{ text: 'the task' }] })}\n`);
    expect(await geminiChatExists(env, project, UUID)).toBe(true);
    // Same 8-char prefix, different session: not ours.
    expect(await geminiChatExists(env, project, `${UUID.slice(0, 8)}-0000-4000-8000-000000000000`)).toBe(false);
    expect(await geminiChatExists({ ...env, GEMINI_CLI_HOME: path.join(tmp, 'gh') }, project, UUID)).toBe(false);
  });
});

describe('aider', () => {
  it('has a record when its chat history file is in the repo', async () => {
    expect(await PROFILES.aider.transcriptExists({ agentSessionId: null, cwd: project }, env)).toBe(false);
    writeFileSync(path.join(project, '.aider.chat.history.md'), '# aider chat started\n');
    expect(await PROFILES.aider.transcriptExists({ agentSessionId: null, cwd: project }, env)).toBe(true);
  });
});

describe('first prompt', () => {
  it('names the three state files, says to read session_state.md first, keep it current, append to the log', () => {
    const text = firstPrompt({ projectDir: '/work/app', name: 'auth', task: 'Add rate limiting' });
    expect(text.startsWith('Task: Add rate limiting')).toBe(true);
    for (const f of ['.mori/auth/session_state.md', '.mori/auth/environment.md', '.mori/auth/work_log.md']) expect(text).toContain(f);
    expect(text).toMatch(/session_state\.md: read it first\. Keep it current/);
    expect(text).toMatch(/work_log\.md: append/);
    expect(firstPrompt({ projectDir: '/work/app', name: 'auth' }).startsWith('This session')).toBe(true);
    expect(stateFilePaths('/work/app', 'auth')).toEqual({
      dir: '/work/app/.mori/auth',
      sessionState: '/work/app/.mori/auth/session_state.md',
      environment: '/work/app/.mori/auth/environment.md',
      workLog: '/work/app/.mori/auth/work_log.md',
    });
  });
});
