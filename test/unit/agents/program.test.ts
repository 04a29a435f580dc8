// Finding an agent's program on PATH, and the install hint when it is missing.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAgentProgram } from '../../../main/agents/agent-program.js';
import { PROFILES } from '../../../main/agents/profiles.js';

describe('findAgentProgram', () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'mori-prog-'));
  const exe = path.join(bin, 'gemini');
  writeFileSync(exe, '#!/bin/sh\n');
  chmodSync(exe, 0o755);
  writeFileSync(path.join(bin, 'claude'), 'not executable\n');

  it('finds an executable on PATH and gives install hints for each agent', () => {
    expect(findAgentProgram(PROFILES.gemini, { PATH: bin })).toEqual({ found: true, path: exe });
    // A file that is not executable is not the program.
    expect(findAgentProgram(PROFILES.claude, { PATH: bin })).toEqual({ found: false, program: 'claude', install: 'npm install -g @anthropic-ai/claude-code' });
    expect(findAgentProgram(PROFILES.codex, { PATH: '' })).toMatchObject({ found: false, install: 'npm install -g @openai/codex' });
    expect(findAgentProgram(PROFILES.gemini, { PATH: '' })).toMatchObject({ found: false, install: 'npm install -g @google/gemini-cli' });
    expect(findAgentProgram(PROFILES.aider, { PATH: '' })).toMatchObject({ found: false, install: 'python -m pip install aider-install && aider-install' });
  });

  it('follows the MORI_AGENT_BIN_ override and the first word of a shell command', () => {
    expect(findAgentProgram(PROFILES.claude, { PATH: '', MORI_AGENT_BIN_CLAUDE: exe })).toEqual({ found: true, path: exe });
    expect(findAgentProgram(PROFILES.shell, { PATH: bin }, "gemini --yolo '{prompt}'")).toEqual({ found: true, path: exe });
    expect(findAgentProgram(PROFILES.custom, { PATH: bin }, '/nowhere/agent {prompt}')).toMatchObject({ found: false, program: '/nowhere/agent' });
  });
});
