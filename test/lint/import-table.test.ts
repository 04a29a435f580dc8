// The tables of who imports whom inside main/ and inside renderer/ (DESIGN.md §2), run through ESLint
// itself on code placed in each folder: an import that climbs the layers fails with the folders named,
// one that goes down passes.
import { readdirSync } from 'node:fs';
import path from 'node:path';
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

/** The import-table errors for `file` importing `from`. */
async function banned(file: string, from: string, kind: 'value' | 'type' = 'value'): Promise<string[]> {
  const code = `import ${kind === 'type' ? 'type ' : ''}{ y } from '${from}';\nexport const x: unknown = ${kind === 'type' ? 'null as unknown as y' : 'y'};\n`;
  const [result] = await eslint.lintText(code, { filePath: `${REPO}/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('who imports whom in main/', () => {
  it('fails on a main/state/ file that imports the daemon, even for a type', async () => {
    const messages = await banned('main/state/bad.ts', '../daemon/control-server.js');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/main\/state\/ may not import main\/daemon\//);
    expect(await banned('main/state/bad.ts', '../daemon/control-server.js', 'type')).toHaveLength(1);
  });

  it('keeps the supervisor and the base folders below the daemon and its clients', async () => {
    for (const upper of ['daemon/daemon-host.js', 'daemon-client/control-client.js', 'cli/output.js', 'web/web-host.js']) {
      expect(await banned('main/supervisor/bad.ts', `../${upper}`), upper).toHaveLength(1);
      expect(await banned('main/terminals/bad.ts', `../${upper}`), upper).toHaveLength(1);
    }
    expect(await banned('main/checks/bad.ts', '../supervisor/supervisor.js')).toHaveLength(1);
    expect(await banned('main/supervisor/ok.ts', '../checks/trust.js')).toEqual([]);
    expect(await banned('main/daemon/ok.ts', '../supervisor/supervisor.js')).toEqual([]);
  });

  it('keeps the daemon from its clients', async () => {
    expect(await banned('main/daemon/bad.ts', '../daemon-client/control-client.js')).toHaveLength(1);
    expect(await banned('main/daemon/api/bad.ts', '../../cli/output.js')).toHaveLength(1);
  });

  it('lets clients reach the daemon only through main/daemon-client/ and the daemon files they share', async () => {
    expect(await banned('main/web/bad.ts', '../cli/output.js')).toHaveLength(1);
    expect(await banned('main/web/bad.ts', '../daemon/control-server.js')).toHaveLength(1);
    expect(await banned('main/web/bad.ts', '../supervisor/supervisor.js')).toHaveLength(1);
    expect(await banned('main/web/ok.ts', '../daemon-client/control-client.js')).toEqual([]);
    expect(await banned('main/electron/bad.ts', '../cli/index.js')).toHaveLength(1);
    expect(await banned('main/electron/bad.ts', '../daemon/daemon-host.js')).toHaveLength(1);
    expect(await banned('main/electron/ok.ts', '../daemon-client/daemon-process.js')).toEqual([]);
    expect(await banned('main/daemon-client/bad.ts', '../daemon/control-server.js')).toHaveLength(1);
    expect(await banned('main/daemon-client/bad.ts', '../supervisor/supervisor.js')).toHaveLength(1);
    expect(await banned('main/daemon-client/ok.ts', '../daemon/control-socket-path.js')).toEqual([]);
  });

  it('keeps main/remote/ a client: below the CLI, above daemon-client, with the approval rule of daemon/', async () => {
    expect(await banned('main/remote/bad.ts', '../cli/output.js')).toHaveLength(1);
    expect(await banned('main/remote/bad.ts', '../web/web-host.js')).toHaveLength(1);
    expect(await banned('main/remote/bad.ts', '../supervisor/supervisor.js')).toHaveLength(1);
    const [message] = await banned('main/remote/bad.ts', '../daemon/control-server.js');
    expect(message).toMatch(/main\/remote\/ may not import main\/daemon\/ beyond control-socket-path\.ts/);
    expect(await banned('main/remote/ok.ts', '../daemon/approval-gate.js')).toEqual([]);
    expect(await banned('main/remote/ok.ts', '../daemon-client/daemon-process.js')).toEqual([]);
    expect(await banned('main/daemon-client/bad.ts', '../remote/bridge.js')).toHaveLength(1);
    expect(await banned('main/web/bad.ts', '../remote/remote-client.js')).toHaveLength(1);
    expect(await banned('main/cli/ok.ts', '../remote/remote-client.js')).toEqual([]);
  });

  it('lets only `mori up` host the daemon, and the app run the CLI as its daemon entry', async () => {
    const [message] = await banned('main/cli/commands/ls.ts', '../../daemon/daemon-host.js');
    expect(message).toMatch(/main\/cli\/ may not import main\/daemon\/ beyond control-socket-path\.ts/);
    expect(await banned('main/cli/approver-check.ts', '../daemon/approval-gate.js')).toEqual([]);
    expect(await banned('main/cli/commands/up.ts', '../../daemon/daemon-host.js')).toEqual([]);
    expect(await banned('main/electron/daemon-entry.ts', '../cli/index.js')).toEqual([]);
    expect(await banned('main/electron/daemon-entry.ts', '../cli/output.js')).toHaveLength(1);
  });

  it('keeps main/os/ to common/', async () => {
    expect(await banned('main/os/bad.ts', '../state/registry.js')).toHaveLength(1);
    expect(await banned('main/os/bad.ts', '../background.js')).toHaveLength(1);
    expect(await banned('main/os/ok.ts', '../../common/result.js')).toEqual([]);
    expect(await banned('main/state/ok.ts', '../os/signals.js')).toEqual([]);
  });

  it('keeps main/sandbox/ between the base and the supervisor, reading only the types of the agents', async () => {
    expect(await banned('main/sandbox/bad.ts', '../supervisor/supervisor.js')).toHaveLength(1);
    expect(await banned('main/sandbox/bad.ts', '../terminals/terminal.js')).toHaveLength(1);
    expect(await banned('main/sandbox/bad.ts', '../agents/profiles.js')).toHaveLength(1);
    expect(await banned('main/sandbox/ok.ts', '../agents/profile.js', 'type')).toEqual([]);
    expect(await banned('main/sandbox/ok.ts', '../os/pid-alive.js')).toEqual([]);
    expect(await banned('main/terminals/bad.ts', '../sandbox/bwrap-args.js')).toHaveLength(1);
    expect(await banned('main/os/bad.ts', '../sandbox/bwrap-args.js')).toHaveLength(1);
    expect(await banned('main/web/bad.ts', '../sandbox/bwrap-args.js')).toHaveLength(1);
    expect(await banned('main/supervisor/launch/ok.ts', '../../sandbox/bwrap-args.js')).toEqual([]);
    expect(await banned('main/daemon/ok.ts', '../sandbox/sandbox-probe.js')).toEqual([]);
  });
});

describe('who imports whom in main/supervisor/', () => {
  it('keeps each part below the parts built after it, even for a type', async () => {
    const [message] = await banned('main/supervisor/launch/bad.ts', '../resume/resume-controller.js');
    expect(message).toMatch(/main\/supervisor\/launch\/ may not import main\/supervisor\/resume\/, a part built after it/);
    expect(await banned('main/supervisor/launch/bad.ts', '../resume/resume-journal.js', 'type')).toHaveLength(1);
    expect(await banned('main/supervisor/session/bad.ts', '../exits/exit-handler.js', 'type')).toHaveLength(1);
    expect(await banned('main/supervisor/signals/bad.ts', '../launch/agent-launcher.js')).toHaveLength(1);
    expect(await banned('main/supervisor/limits/bad.ts', '../resume/resume-controller.js', 'type')).toHaveLength(1);
    expect(await banned('main/supervisor/resume/ok.ts', '../launch/agent-launcher.js')).toEqual([]);
    expect(await banned('main/supervisor/exits/ok.ts', '../checkpoints/checkpoint.js')).toEqual([]);
    expect(await banned('main/supervisor/typing/ok.ts', '../session/session-runtime.js')).toEqual([]);
    expect(await banned('main/supervisor/ok.ts', './resume/resume-controller.js')).toEqual([]);
  });

  it('has every folder of main/supervisor/ in the table: none imports the Supervisor\'s own files, nor the daemon', async () => {
    const parts = readdirSync(path.join(REPO, 'main', 'supervisor'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(parts.length).toBeGreaterThanOrEqual(8);
    for (const part of parts) {
      const [message] = await banned(`main/supervisor/${part}/bad.ts`, '../supervisor-options.js', 'type');
      expect(message, part).toMatch(new RegExp(`main/supervisor/${part}/ may not import the Supervisor's own files`));
      expect(await banned(`main/supervisor/${part}/bad.ts`, '../supervisor.js'), part).toHaveLength(1);
      expect(await banned(`main/supervisor/${part}/bad.ts`, '../../daemon/daemon-host.js'), part).toHaveLength(1);
    }
  });
});

describe("who imports whom in the window's folders (renderer/)", () => {
  it('keeps ui/ under every pane and the shell', async () => {
    const [message] = await banned('renderer/ui/bad.tsx', '../shell/window-store.js');
    expect(message).toMatch(/renderer\/ui\/ may not import renderer\/shell\//);
    expect(await banned('renderer/ui/bad.tsx', '../terminal/terminal-pool.js', 'type')).toHaveLength(1);
    expect(await banned('renderer/ui/ok.tsx', './modal.js')).toEqual([]);
  });

  it('lets a pane import ui/, and another pane or the shell for types only', async () => {
    expect(await banned('renderer/changes/ok.tsx', '../ui/modal.js')).toEqual([]);
    expect(await banned('renderer/header/bad.tsx', '../terminal/terminal-pool.js')).toHaveLength(1);
    expect(await banned('renderer/header/ok.tsx', '../terminal/terminal-pool.js', 'type')).toEqual([]);
    expect(await banned('renderer/notices/bad.tsx', '../shell/window-store.js')).toHaveLength(1);
    expect(await banned('renderer/notices/ok.tsx', '../shell/window-store.js', 'type')).toEqual([]);
  });

  it('lets the shell compose every pane', async () => {
    expect(await banned('renderer/shell/ok.tsx', '../changes/lazy-changes-tab.js')).toEqual([]);
    expect(await banned('renderer/shell/ok.tsx', '../sessions/sessions-sidebar.js')).toEqual([]);
  });
});
