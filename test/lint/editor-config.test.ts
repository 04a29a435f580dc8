// An editor opening the project gets the project's compiler settings for every file: TypeScript's
// language service (the one VS Code and most editors run) finds the root tsconfig.json and, through
// its references, the config that includes the file, instead of falling back to defaults.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** The config the language service uses for each file (relative to the repo), or `inferred` when none. */
function editorProjects(files: string[]): string[] {
  const noop = (): void => undefined;
  const logger: ts.server.Logger = {
    close: noop,
    hasLevel: () => false,
    loggingEnabled: () => false,
    perftrc: noop,
    info: noop,
    startGroup: noop,
    endGroup: noop,
    msg: noop,
    getLogFileName: () => undefined,
  };
  const host: ts.server.ServerHost = {
    ...ts.sys,
    setTimeout: (cb, ms, ...args) => setTimeout(cb, ms, ...args),
    clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout),
    setImmediate: (cb, ...args) => setImmediate(cb, ...args),
    clearImmediate: (t) => clearImmediate(t as NodeJS.Immediate),
    watchFile: () => ({ close: noop }),
    watchDirectory: () => ({ close: noop }),
  };
  const service = new ts.server.ProjectService({
    host,
    logger,
    cancellationToken: ts.server.nullCancellationToken,
    useSingleInferredProject: false,
    useInferredProjectPerProjectRoot: false,
    typingsInstaller: ts.server.nullTypingsInstaller,
    session: undefined,
  });
  return files.map((file) => {
    const abs = ts.server.toNormalizedPath(path.join(REPO, file));
    service.openClientFile(abs);
    const project = service.getDefaultProjectForFile(abs, false);
    if (!project || project.projectKind !== ts.server.ProjectKind.Configured) return 'inferred';
    return path.relative(REPO, project.getProjectName());
  });
}

describe('the root tsconfig.json', () => {
  // The language service loads the whole Node program once: seconds, more on a loaded machine.
  it('gives the editor the Node config for main/ and test/ files', { timeout: 90_000 }, () => {
    expect(editorProjects(['main/cli/index.ts', 'test/lint/editor-config.test.ts'])).toEqual(['tsconfig.node.json', 'tsconfig.node.json']);
  });
});
