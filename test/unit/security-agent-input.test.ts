// Values from session.json that reach a command line: agent session ids checked against their
// profile's form, command templates whose placeholders a shell would read, and the tmux start
// directory escaped where tmux expands formats (DESIGN.md §5, §6, §7).
import { describe, expect, it } from 'vitest';
import { checkAgentId, isAgentId } from '../../main/agents/agent-id.js';
import { checkTemplatePlaceholders } from '../../main/agents/command-template.js';
import { PROFILES } from '../../main/agents/profiles.js';
import { formatLiteral } from '../../main/terminals/tmux/tmux-format.js';
import { respawnCommand } from '../../main/terminals/tmux/session-setup.js';
import { PROFILE_NAMES, type ProfileName } from '../../common/session.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
const env = { HOME: '/home/someone' };

describe('agent session ids', () => {
  const uuidProfiles: ProfileName[] = ['claude', 'codex', 'gemini', 'qwen', 'copilot'];
  const plainProfiles: ProfileName[] = ['aider', 'shell', 'custom'];
  const table: [string, boolean, boolean][] = [
    // id, valid for a UUID profile, valid for the others
    [UUID, true, true],
    [UUID.toUpperCase(), true, true],
    ['my-session_1.2', false, true],
    ['a'.repeat(128), false, true],
    ['a'.repeat(129), false, false],
    ['', false, false],
    ['x; touch ~/marker', false, false],
    ['$(touch m)', false, false],
    ['`id`', false, false],
    ['a b', false, false],
    ['../../etc/passwd', false, false],
    ['#(touch m)', false, false],
    ['id\nnext', false, false],
    [`${UUID} `, false, false],
    [`${UUID};x`, false, false],
  ];
  it.each(table)('%j: UUID profiles %s, others %s', (id, forUuid, forPlain) => {
    for (const p of uuidProfiles) expect(isAgentId(p, id)).toBe(forUuid);
    for (const p of plainProfiles) expect(isAgentId(p, id)).toBe(forPlain);
  });

  it('covers every profile', () => {
    expect([...uuidProfiles, ...plainProfiles, 'opencode', 'pi'].sort()).toEqual([...PROFILE_NAMES].sort());
  });

  // opencode names sessions `ses_` + 26 letters and digits, as its log and database show (1.18.33).
  it.each([
    ['ses_dd006de6bffe2iYDZkrcJ5uqVC', true],
    ['ses_dd0058b19ffeOWu6ARVeePw7c0', true],
    ['ses_dd006de6bffe2iYDZkrcJ5uqV', false],
    ['ses_dd006de6bffe2iYDZkrcJ5uqVCx', false],
    ['ses_dd006de6bffe2iYDZkrcJ5uq-C', false],
    ['ses_dd006de6bffe2iYDZkrcJ5uq;C', false],
    [UUID, false],
    ['-s', false],
    ['', false],
  ])('opencode id %j: %s', (id, valid) => {
    expect(isAgentId('opencode', id)).toBe(valid);
  });

  // Pi's id is its session file's name (Mori's UUID, or Pi's own `<time>_<uuid>` after a /new): never a path.
  it.each([
    [UUID, true],
    ['2026-12-06T10-41-42-289Z_01a24af1-fb8f-7443-8ce7-d2c7eb3ba19c', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['../../etc/passwd', false],
    ['x.jsonl', false],
    ['-e', false],
    ['a/b', false],
    ['', false],
  ])('pi id %j: %s', (id, valid) => {
    expect(isAgentId('pi', id)).toBe(valid);
  });

  it('a refused id names where it came from and never reaches a command', () => {
    const r = checkAgentId('custom', 'x; touch ~/marker', '/p/.mori/s/session.json: agent.sessionId');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^\/p\/\.mori\/s\/session\.json: agent\.sessionId: "x; touch ~\/marker" is not a custom session id/);
    expect(checkAgentId('claude', null, 'x').ok).toBe(true);
  });

  it('each profile refuses to resume with an id of the wrong form', () => {
    for (const name of ['claude', 'codex', 'gemini'] as const) {
      const r = PROFILES[name].resumeSession({ cwd: '/p', agentSessionId: 'x; touch m', prompt: null, env });
      expect(r.ok, name).toBe(false);
    }
    for (const name of ['shell', 'custom'] as const) {
      const r = PROFILES[name].resumeSession({ cwd: '/p', agentSessionId: 'x; touch m', prompt: null, command: 'agent --resume {id}', env });
      expect(r.ok, name).toBe(false);
      // A template without {id} never uses the id, whatever it is.
      expect(PROFILES[name].resumeSession({ cwd: '/p', agentSessionId: 'x; touch m', prompt: null, command: 'agent', env }).ok, name).toBe(true);
    }
  });
});

describe('placeholders in command templates', () => {
  const refused = [
    `sh -c 'agent --resume {id}'`,
    `sh -c 'agent "--id={id}"'`,
    `bash -lc 'agent {prompt}'`,
    `/bin/sh -c agent{id}`,
    `env FOO=1 nice -n 5 dash -c 'agent {prompt}'`,
    `ssh host 'agent --resume {id}'`,
    `agent "--message={prompt}; rm -rf x"`,
    `agent '$({id})'`,
  ];
  const accepted = [
    `agent --resume {id} {prompt}`,
    `agent --session={id} --message={prompt}`,
    `sh -c 'agent --resume "$1"' sh {id}`,
    `sh -c 'exec agent "$@"' sh {prompt}`,
    `sh -c "echo hi; exec sleep 600"`,
    `cat`,
  ];
  it.each(refused)('refuses %s', (t) => {
    const r = checkTemplatePlaceholders(t);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('usage');
      expect(r.message).toMatch(/is inside the word .* Make the placeholder a word of its own/);
    }
  });
  it.each(accepted)('accepts %s', (t) => {
    expect(checkTemplatePlaceholders(t)).toEqual({ ok: true, value: undefined });
  });
});

describe('the tmux start directory', () => {
  it('doubles every # so tmux expands it to itself', () => {
    expect(formatLiteral('/p/x#(touch m)')).toBe('/p/x##(touch m)');
    expect(formatLiteral('/p/#{pane_id}/##')).toBe('/p/##{pane_id}/####');
    expect(formatLiteral('/plain/dir')).toBe('/plain/dir');
  });

  it('reaches respawn-pane escaped for tmux formats and for the command line', () => {
    const line = respawnCommand('mori-x', { cwd: '/p/x#(touch m)', env: { A: '#(touch e)' }, program: ['agent', '#(touch p)'] });
    expect(line).toContain('-c "/p/x\\#\\#\\(touch m\\)"');
    // Neither the environment nor the program's words are formats: they stay as they are.
    expect(line).toContain('-e "A=\\#\\(touch e\\)"');
    expect(line).toContain('-- "agent" "\\#\\(touch p\\)"');
  });
});
