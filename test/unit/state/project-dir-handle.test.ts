// A project's directories held open: walked from the project one component at a time, made when
// asked, written and emptied relative to the held descriptor; a link among the components, a path
// that climbs out, and a directory that moved away are refused, never followed. Real files.
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathRefused, ProjectDirHandle } from '../../../main/state/project-dir-handle.js';
import { tempDir } from '../../../testkit/mori-cli.js';

describe.runIf(process.platform === 'linux')('ProjectDirHandle', () => {
  it('makes missing directories, writes files and links in them, and removes a file with the directories it leaves empty', async () => {
    const project = tempDir('handle');
    const handle = ProjectDirHandle.open(project);
    try {
      expect(handle.dir('a/b', false)).toBeNull();
      const held = handle.dir('a/b', true)!;
      expect(held.rel).toBe('a/b');
      await held.writeFile('f.txt', Buffer.from('hello\n'), 0o755);
      held.writeLink('l', '../../elsewhere');
      mkdirSync(path.join(project, 'a', 'b', 'was-a-dir'));
      await held.writeFile('was-a-dir', Buffer.from('a file now\n'), 0o644);
      held.close();
      expect(readFileSync(path.join(project, 'a/b/f.txt'), 'utf8')).toBe('hello\n');
      expect(statSync(path.join(project, 'a/b/f.txt')).mode & 0o100).toBe(0o100);
      expect(readlinkSync(path.join(project, 'a/b/l'))).toBe('../../elsewhere');
      expect(readFileSync(path.join(project, 'a/b/was-a-dir'), 'utf8')).toBe('a file now\n');
      expect(readdirSync(path.join(project, 'a/b')).sort()).toEqual(['f.txt', 'l', 'was-a-dir']); // no temp file left

      const again = handle.dir('a/b', false)!;
      for (const f of ['f.txt', 'l', 'was-a-dir']) expect(again.remove(f)).toBe(true);
      expect(again.remove('f.txt')).toBe(false);
      again.removeEmptyParents();
      again.close();
      expect(existsSync(path.join(project, 'a'))).toBe(false);
      expect(existsSync(project)).toBe(true);
    } finally {
      handle.close();
    }
  });

  it('refuses a link or a file among the components, and a path that climbs out, writing nothing', async () => {
    const project = tempDir('handle-links');
    const outside = tempDir('handle-outside');
    writeFileSync(path.join(outside, 'victim'), 'keep\n');
    mkdirSync(path.join(project, 'real'));
    symlinkSync(outside, path.join(project, 'real', 'out'));
    writeFileSync(path.join(project, 'plain'), 'a file\n');
    const handle = ProjectDirHandle.open(project);
    try {
      expect(() => handle.dir('real/out/sub', true)).toThrow(PathRefused);
      expect(() => handle.dir('real/out/sub', true)).toThrow('real/out: is a symbolic link or not a directory; Mori never writes or deletes through it');
      expect(() => handle.dir('plain/sub', true)).toThrow('plain: is a symbolic link or not a directory');
      expect(() => handle.dir('real/../..', false)).toThrow('not a plain path below the project');
      const real = handle.dir('real', false)!;
      mkdirSync(path.join(project, 'real', 'dir'));
      expect(() => real.remove('dir')).toThrow('real/dir: is a directory, not a file or a link');
      real.close();
    } finally {
      handle.close();
    }
    expect(readdirSync(outside)).toEqual(['victim']);
    expect(readFileSync(path.join(outside, 'victim'), 'utf8')).toBe('keep\n');
    expect(lstatSync(path.join(project, 'real', 'out')).isSymbolicLink()).toBe(true);
  });

  it('refuses a directory the kernel no longer names inside the project', () => {
    const parent = tempDir('handle-moved');
    const project = path.join(parent, 'project');
    mkdirSync(path.join(project, 'sub'), { recursive: true });
    const handle = ProjectDirHandle.open(project);
    try {
      renameSync(project, path.join(parent, 'moved'));
      expect(() => handle.dir('sub', false)).toThrow(`sub: was moved (the kernel names it ${path.join(parent, 'moved', 'sub')})`);
    } finally {
      handle.close();
    }
  });
});
