// The permission mode of a Claude Code conversation from its transcript (lines as Claude Code 2.1.332
// writes them): the last mode written wins, Claude's names become Mori's words, a mode line pushed out
// of the tail by a long turn is found at the head, and a transcript that is absent or a FIFO says none.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudePermissionMode, lastPermissionMode } from '../../../../main/agents/claude/permission-mode.js';
import { claudeTranscriptPath } from '../../../../main/agents/claude/transcript.js';

const ID = '3b8ccf36-ac55-4c0a-a2b0-11125cceaba6';
const modeLine = (m: string): string => JSON.stringify({ type: 'permission-mode', permissionMode: m, sessionId: ID });
const prompt = (m: string): string => JSON.stringify({ type: 'user', message: { role: 'user', content: 'say hi' }, permissionMode: m, sessionId: ID });
const root = mkdtempSync(path.join(os.tmpdir(), 'mori-claude-mode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = { CLAUDE_CONFIG_DIR: path.join(root, '.claude'), HOME: root };
const cwd = '/tmp/proj';
const file = claudeTranscriptPath(env, cwd, ID);
mkdirSync(path.dirname(file), { recursive: true });

describe("a Claude Code conversation's permission mode", () => {
  it("is the last one its transcript writes, in Mori's words", () => {
    expect(lastPermissionMode([modeLine('auto'), prompt('auto'), modeLine('bypassPermissions')].join('\n'))).toBe('bypass');
    expect(lastPermissionMode([modeLine('default'), prompt('default')].join('\n'))).toBe('default');
    expect(lastPermissionMode(modeLine('acceptEdits'))).toBe('accept-edits');
    expect(lastPermissionMode(modeLine('someLaterMode'))).toBe('somelatermode');
    expect(lastPermissionMode('{"type":"user","message":{"content":"permissionMode"}}')).toBeNull();
  });

  it('is read from the transcript, at its head when a long turn pushed every mode out of its tail', async () => {
    writeFileSync(file, [modeLine('auto'), prompt('auto'), JSON.stringify({ type: 'assistant', text: 'x'.repeat(600 * 1024) })].join('\n') + '\n');
    expect(await claudePermissionMode({ agentSessionId: ID, cwd }, env)).toBe('auto');
    writeFileSync(file, [modeLine('auto'), modeLine('plan')].join('\n') + '\n');
    expect(await claudePermissionMode({ agentSessionId: ID, cwd }, env)).toBe('plan');
  });

  it('is unknown without a transcript, without an id, or when a FIFO stands in its place', async () => {
    expect(await claudePermissionMode({ agentSessionId: '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b', cwd }, env)).toBeNull();
    expect(await claudePermissionMode({ agentSessionId: null, cwd }, env)).toBeNull();
    rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(await claudePermissionMode({ agentSessionId: ID, cwd }, env)).toBeNull();
  });
});
