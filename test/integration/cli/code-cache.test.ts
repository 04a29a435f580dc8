// The CLI's code cache (bin/code-cache.js): the real `mori` writes V8's code for the bundle files it
// loaded, a later run uses it (nothing rewritten, so V8 accepted it), a corrupt or foreign file there
// is rejected and replaced without changing what the command does, code of files a rebuild replaced
// is dropped, and a cache folder that cannot be made costs nothing but speed.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runMori, tempDir } from '../../../testkit/mori-cli.js';

const { codeCacheDir } = createRequire(import.meta.url)('../../../bin/code-cache.js') as { codeCacheDir: (bundleDir: string, env: NodeJS.ProcessEnv) => string };
const BUNDLE = path.join(REPO, 'out', 'cli', 'main', 'lean');

function mtimes(dir: string): Record<string, number> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(path.join(dir, f)).mtimeMs]));
}

describe('the CLI code cache', () => {
  it('is written once, then used, and a corrupt entry is replaced without changing the command', () => {
    const home = tempDir('code-cache-home');
    const env = { XDG_CACHE_HOME: tempDir('code-cache') };
    const dir = codeCacheDir(BUNDLE, env);
    const ls = () => runMori(['ls', '--json'], { home, env });

    const first = ls();
    expect(first.code).toBe(0);
    const cached = readdirSync(dir);
    // The entry and the command's chunk at least; every name is a file of the bundle.
    expect(cached).toContain('mori.cjs');
    expect(cached.some((f) => /^ls-.*\.cjs$/.test(f))).toBe(true);
    expect(cached.every((f) => readdirSync(BUNDLE).includes(f))).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const before = mtimes(dir);
    const second = ls();
    expect(second.stdout).toBe(first.stdout);
    // Nothing compiled afresh: V8 took every cached file.
    expect(mtimes(dir)).toEqual(before);

    // Garbage in place of the entry's code, and code of a bundle file that no longer exists.
    writeFileSync(path.join(dir, 'mori.cjs'), 'not V8 code at all');
    writeFileSync(path.join(dir, 'gone-0000.cjs'), 'left by an older build');
    const third = ls();
    expect(third.code).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(readFileSync(path.join(dir, 'mori.cjs'), 'utf8')).not.toBe('not V8 code at all');
    expect(readdirSync(dir)).not.toContain('gone-0000.cjs');
    // The replacement is taken in turn.
    const after = mtimes(dir);
    ls();
    expect(mtimes(dir)).toEqual(after);
  });

  it('never runs the code of an earlier build of a file, even one of the same length', () => {
    // A copy of the bundle: a rebuild here must not touch the one every other test runs.
    const bundle = path.join(tempDir('code-cache-bundle'), 'lean');
    cpSync(BUNDLE, bundle, { recursive: true });
    const env = { XDG_CACHE_HOME: tempDir('code-cache') };
    const entry = path.join(bundle, 'mori.cjs');
    const run = () => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(REPO, 'bin', 'code-cache.js'))}).requireWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(entry)})`, 'mori', '--version'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(run().stdout.trim()).toBe('0.1.0');
    // The same file with another version number of the same length: V8 alone would take the old code.
    const text = readFileSync(entry, 'utf8');
    expect(text).toContain(".version('0.1.0')".replace(/'/g, '"'));
    writeFileSync(entry, text.replace('.version("0.1.0")', '.version("0.9.9")'));
    expect(run().stdout.trim()).toBe('0.9.9');
  });

  it('runs the command all the same when the cache folder cannot be made', () => {
    const home = tempDir('code-cache-home');
    const notADir = path.join(tempDir('code-cache'), 'file');
    writeFileSync(notADir, '');
    const r = runMori(['ls', '--json'], { home, env: { XDG_CACHE_HOME: notADir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, sessions: [] });
  });
});
