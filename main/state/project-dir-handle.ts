// A project's directories held open, for writing and deleting inside it where the agent can swap a
// directory for a symbolic link at any moment (DESIGN.md §11, rollback). A directory below the
// project is reached from the project's own descriptor one component at a time, each opened with
// O_DIRECTORY|O_NOFOLLOW (missing ones made with mkdirat when asked), and the last is confirmed to be
// inside the project by the kernel's own name for the descriptor; files are then removed, written (a
// new temp file O_CREAT|O_EXCL|O_NOFOLLOW, fsync, renameat) or made links relative to that descriptor,
// never through a path again. A component that is a link (or not a directory) when it is opened is
// refused with PathRefused, never followed. Any Node process: the *at calls are synchronous and
// metadata-only; writes and fsync go through libuv.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsync, write } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { atConstants, descriptorPath, mkdirAt, openAt, renameAt, symlinkAt, SyscallError, unlinkAt } from '../os/libc.js';

const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);

/** A directory opened for walking: never through a link, never a FIFO or a file. */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** A missing directory made on the way, as `mkdir -p` would under the usual umask. */
const DIR_MODE = 0o755;

/** A path below the project that Mori refused to go through; `rel` is the component refused. */
export class PathRefused extends Error {
  constructor(
    readonly rel: string,
    why: string,
  ) {
    super(`${rel}: ${why}; Mori never writes or deletes through it`);
  }
}

function components(rel: string): string[] {
  const parts = rel === '' || rel === '.' ? [] : rel.split('/');
  for (const p of parts) if (p === '' || p === '.' || p === '..') throw new PathRefused(rel, 'not a plain path below the project');
  return parts;
}

function isCode(err: unknown, ...codes: string[]): boolean {
  return err instanceof SyscallError && codes.includes(err.code);
}

/** One directory below the project, held open with every directory above it up to the project. */
export class HeldDir {
  constructor(
    private readonly chain: readonly number[],
    private readonly names: readonly string[],
    /** Project-relative, '/'-separated; '' for the project itself. */
    readonly rel: string,
  ) {}

  get fd(): number {
    return this.chain[this.chain.length - 1]!;
  }

  /** Removes the file or link `name` (never what a link points at); false when nothing was there. */
  remove(name: string): boolean {
    try {
      unlinkAt(this.fd, name);
      return true;
    } catch (err) {
      if (isCode(err, 'ENOENT')) return false;
      // Linux answers EISDIR, macOS EPERM: a directory stands where a file or link was.
      if (isCode(err, 'EISDIR', 'EPERM')) throw new PathRefused(this.rel === '' ? name : `${this.rel}/${name}`, 'is a directory, not a file or a link');
      throw err;
    }
  }

  /** Removes this directory and the ones above it while each is empty, stopping at the first that is not (or is gone). */
  removeEmptyParents(): void {
    for (let i = this.names.length - 1; i >= 0; i--) {
      try {
        unlinkAt(this.chain[i]!, this.names[i]!, { dir: true });
      } catch {
        return; // not empty (an ignored file stays), or gone
      }
    }
  }

  /** Writes `name` with `data` (a new file, fsynced, renamed over whatever is there; an empty directory there is removed). */
  async writeFile(name: string, data: Buffer, mode: number): Promise<void> {
    const temp = tempName(name);
    const fd = openAt(this.fd, temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      try {
        for (let at = 0; at < data.length; ) at += (await writeAsync(fd, data, at, data.length - at)).bytesWritten;
        await fsyncAsync(fd);
      } finally {
        closeSync(fd);
      }
      this.replace(temp, name);
    } catch (err) {
      this.discard(temp);
      throw err;
    }
  }

  /** Makes `name` a symbolic link holding `target` (renamed over whatever is there). */
  writeLink(name: string, target: string): void {
    const temp = tempName(name);
    symlinkAt(target, this.fd, temp);
    try {
      this.replace(temp, name);
    } catch (err) {
      this.discard(temp);
      throw err;
    }
  }

  /** Removes a temp file of ours after a failure, keeping that failure the one reported. */
  private discard(temp: string): void {
    try {
      unlinkAt(this.fd, temp);
    } catch {
      // gone already
    }
  }

  private replace(temp: string, name: string): void {
    try {
      renameAt(this.fd, temp, this.fd, name);
    } catch (err) {
      if (!isCode(err, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) throw err;
      unlinkAt(this.fd, name, { dir: true }); // empty once the files under it were deleted; else this throws
      renameAt(this.fd, temp, this.fd, name);
    }
  }

  close(): void {
    for (const fd of this.chain.slice(1)) closeSync(fd);
  }
}

/** A name beside `name` no one else uses. */
function tempName(name: string): string {
  return `.${name}.mori-rollback-${randomBytes(4).toString('hex')}`;
}

/** The project's directory, held open; dir() walks below it. close() when done. */
export class ProjectDirHandle {
  private constructor(
    private readonly rootFd: number,
    /** The project's path as the kernel names it (links in the person's own path resolved). */
    readonly realPath: string,
  ) {}

  /** Opens the project dir itself (the path up to it is the person's, not the agent's, and may hold links). */
  static open(projectDir: string): ProjectDirHandle {
    const fd = openAt(atConstants().AT_FDCWD, projectDir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      return new ProjectDirHandle(fd, descriptorPath(fd));
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /**
   * The directory `rel` (project-relative, '/'-separated) held open, reached one component at a time
   * without following links; missing ones are made when `create`, else the answer is null. Throws
   * PathRefused for a component that is a link or not a directory, or a directory found outside the project.
   */
  dir(rel: string, create: boolean): HeldDir | null {
    const names = components(rel);
    const chain = [this.rootFd];
    const done = (): void => {
      for (const fd of chain.slice(1)) closeSync(fd);
    };
    try {
      for (const [i, name] of names.entries()) {
        const at = names.slice(0, i + 1).join('/');
        const parent = chain[chain.length - 1]!;
        let fd: number;
        try {
          fd = openAt(parent, name, DIR_FLAGS);
        } catch (err) {
          if (isCode(err, 'ELOOP', 'ENOTDIR')) throw new PathRefused(at, 'is a symbolic link or not a directory');
          if (!isCode(err, 'ENOENT')) throw err;
          if (!create) {
            done();
            return null;
          }
          try {
            mkdirAt(parent, name, DIR_MODE);
          } catch (e) {
            if (!isCode(e, 'EEXIST')) throw e; // made meanwhile: opened (and checked) below
          }
          try {
            fd = openAt(parent, name, DIR_FLAGS);
          } catch (e) {
            if (isCode(e, 'ELOOP', 'ENOTDIR')) throw new PathRefused(at, 'is a symbolic link or not a directory');
            throw e;
          }
        }
        chain.push(fd);
      }
      // Each component was opened without following a link, so the directory is the project's
      // unless one of them was moved out of it meanwhile: the kernel's name for it says where it is.
      const expected = names.length === 0 ? this.realPath : path.join(this.realPath, ...names);
      const actual = descriptorPath(chain[chain.length - 1]!);
      if (actual !== expected) throw new PathRefused(rel, `was moved (the kernel names it ${actual})`);
      return new HeldDir(chain, names, names.join('/'));
    } catch (err) {
      done();
      throw err;
    }
  }

  close(): void {
    closeSync(this.rootFd);
  }
}
