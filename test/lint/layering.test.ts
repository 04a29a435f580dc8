// The layering rule of DESIGN.md §2, run through ESLint itself on code placed in each layer.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

// The files linted here do not exist, so no type information: the typed rules are off for them.
const eslint = new ESLint({
  cwd: REPO,
  overrideConfig: {
    languageOptions: { parserOptions: { project: null, projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint rule', () => {
  it("fails on a file under main/state/ that imports 'electron'", async () => {
    const messages = await restricted('main/state/bad.ts', "import { app } from 'electron';\nexport const x = app;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/only main\/electron\/ and preload\/ import 'electron'/);
  });

  it("allows 'electron' in main/electron/", async () => {
    expect(await restricted('main/electron/tray.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });

  it('keeps common/ pure and the renderer to common/', async () => {
    expect(await restricted('common/x.ts', "import fs from 'node:fs';\nexport const x = fs;\n")).toHaveLength(1);
    expect(await restricted('common/x.ts', "import { y } from '../main/state/registry.js';\nexport const x = y;\n")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import { y } from '../main/state/registry.js';\nexport const x = y;\n")).toHaveLength(1);
    expect(await restricted('renderer/x.ts', "import { y } from '../common/session.js';\nexport const x = y;\n")).toEqual([]);
  });

  it('keeps main/os/ to common/', async () => {
    expect(await restricted('main/os/x.ts', "import { y } from '../state/registry.js';\nexport const x = y;\n")).toHaveLength(1);
    expect(await restricted('main/os/x.ts', "import { y } from '../terminals/terminal.js';\nexport const x = y;\n")).toHaveLength(1);
    expect(await restricted('main/os/x.ts', "import { ok } from '../../common/result.js';\nimport { pidAlive } from './pid-alive.js';\nexport const x = [ok, pidAlive];\n")).toEqual([]);
  });

  it('keeps node-pty to the direct backend', async () => {
    expect(await restricted('main/supervisor/x.ts', "import pty from 'node-pty';\nexport const x = pty;\n")).toHaveLength(1);
    expect(await restricted('main/terminals/tmux/x.ts', "import pty from 'node-pty';\nexport const x = pty;\n")).toHaveLength(1);
    expect(await restricted('main/terminals/direct/direct-pty-source.ts', "import pty from 'node-pty';\nexport const x = pty;\n")).toEqual([]);
  });
});
