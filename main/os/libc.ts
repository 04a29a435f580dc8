// The few system calls Node does not offer, asked of the C library itself through koffi (an FFI
// whose npm package carries its prebuilt binaries): whose process is on the other end of a unix
// socket (the kernel's SO_PEERCRED on Linux, LOCAL_PEERPID on macOS), and the *at family of file
// calls (openat, mkdirat, unlinkat, renameat, symlinkat) and a descriptor's path, which act inside a directory held open rather than
// through a path that can be swapped between a check and its use (DESIGN.md §11). Loaded on first
// use only, so a command that never asks pays nothing. When the library cannot be loaded every call
// says so: callers refuse what they would have allowed, never fall back to parsing text.
// Any Node process.
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as osConstants } from 'node:os';

type Fn = (...args: unknown[]) => number;
interface Koffi {
  load(path: string): { func(signature: string): Fn };
  errno(): number;
}

/** A system call's failure as Node reports its own: `code` is the errno's name (ELOOP, ENOENT…). */
export class SyscallError extends Error {
  constructor(
    readonly syscall: string,
    readonly errno: number,
    readonly code: string,
    readonly path?: string,
  ) {
    super(`${syscall}${path === undefined ? '' : ` "${path}"`} failed: ${code}`);
  }
}

interface Calls {
  getsockopt: Fn;
  openat: Fn;
  mkdirat: Fn;
  unlinkat: Fn;
  renameat: Fn;
  symlinkat: Fn;
  fcntl: Fn;
  errno(): number;
}

/** Where the C library lives, per platform (glibc's soname first, then musl's). */
const LIBC_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['libc.so.6', 'libc.musl-x86_64.so.1', 'libc.musl-aarch64.so.1', 'libc.so'],
  darwin: ['/usr/lib/libSystem.B.dylib'],
};

let loaded: Calls | { error: string } | null = null;

function load(): Calls | { error: string } {
  if (loaded) return loaded;
  const paths = LIBC_PATHS[process.platform];
  if (!paths) return (loaded = { error: `no C library calls on ${process.platform}` });
  let koffi: Koffi;
  try {
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (err) {
    return (loaded = { error: `the koffi module could not be loaded: ${(err as Error).message}` });
  }
  const tried: string[] = [];
  for (const at of paths) {
    try {
      const lib = koffi.load(at);
      loaded = {
        getsockopt: lib.func('int getsockopt(int, int, int, _Out_ uint8_t *buf, _Inout_ uint32_t *len)'),
        // Variadic in C: the mode is passed as a typed extra argument ('uint32_t', mode).
        openat: lib.func('int openat(int, const char *, int, ...)'),
        mkdirat: lib.func('int mkdirat(int, const char *, uint32_t)'),
        unlinkat: lib.func('int unlinkat(int, const char *, int)'),
        renameat: lib.func('int renameat(int, const char *, int, const char *)'),
        symlinkat: lib.func('int symlinkat(const char *, int, const char *)'),
        // Variadic in C: the third argument's type is given with it ('uint8_t *', buffer).
        fcntl: lib.func('int fcntl(int, int, ...)'),
        errno: () => koffi.errno(),
      };
      return loaded;
    } catch (err) {
      tried.push(`${at}: ${(err as Error).message}`);
    }
  }
  return (loaded = { error: `the C library could not be loaded (${tried.join('; ')})` });
}

/** Whether the calls below can be made here, or why not. */
export function libcAvailable(): { ok: true } | { ok: false; reason: string } {
  const calls = load();
  return 'error' in calls ? { ok: false, reason: calls.error } : { ok: true };
}

function calls(): Calls {
  const c = load();
  if ('error' in c) throw new Error(c.error);
  return c;
}

const ERRNO_NAMES = new Map(Object.entries(osConstants.errno).map(([name, n]) => [n, name]));

function check(result: number, syscall: string, path?: string): number {
  if (result >= 0) return result;
  const errno = calls().errno();
  throw new SyscallError(syscall, errno, ERRNO_NAMES.get(errno) ?? `errno ${errno}`, path);
}

/** Flags and numbers of the *at calls that fs.constants lacks, per platform (their C headers). */
interface AtConstants {
  /** The "current directory" pseudo-descriptor. */
  AT_FDCWD: number;
  /** unlinkat removes a directory. */
  AT_REMOVEDIR: number;
  /** Close the descriptor in any program started later (fs.constants has no O_CLOEXEC). */
  O_CLOEXEC: number;
}

const AT: Partial<Record<NodeJS.Platform, AtConstants>> = {
  linux: { AT_FDCWD: -100, AT_REMOVEDIR: 0x200, O_CLOEXEC: 0o2000000 },
  darwin: { AT_FDCWD: -2, AT_REMOVEDIR: 0x80, O_CLOEXEC: 0x1000000 },
};

/** This platform's *at constants; throws where the calls are not supported. */
export function atConstants(): AtConstants {
  const c = AT[process.platform];
  if (!c) throw new Error(`no *at file calls on ${process.platform}`);
  return c;
}

/** openat(2): `name` opened inside the directory `dirFd`; the close-on-exec flag is always added. */
export function openAt(dirFd: number, name: string, flags: number, mode = 0): number {
  return check(calls().openat(dirFd, name, flags | atConstants().O_CLOEXEC, 'uint32_t', mode), 'openat', name);
}

/** mkdirat(2). */
export function mkdirAt(dirFd: number, name: string, mode: number): void {
  check(calls().mkdirat(dirFd, name, mode), 'mkdirat', name);
}

/** unlinkat(2): a file, or an empty directory with `{ dir: true }`. */
export function unlinkAt(dirFd: number, name: string, opts: { dir?: boolean } = {}): void {
  check(calls().unlinkat(dirFd, name, opts.dir ? atConstants().AT_REMOVEDIR : 0), 'unlinkat', name);
}

/** renameat(2): both names relative to their own directory descriptors. */
export function renameAt(fromDirFd: number, from: string, toDirFd: number, to: string): void {
  check(calls().renameat(fromDirFd, from, toDirFd, to), 'renameat', to);
}

/** symlinkat(2): a symbolic link `name` inside `dirFd` holding `target` (never resolved here). */
export function symlinkAt(target: string, dirFd: number, name: string): void {
  check(calls().symlinkat(target, dirFd, name), 'symlinkat', name);
}

/** fcntl's commands and flag for a descriptor's own flags: the same numbers on Linux and macOS. */
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

/**
 * Marks a descriptor close-on-exec, so no program started later (another agent, git, a hook) holds
 * it: for descriptors a library opened without the flag (node-pty's pty master on Linux).
 */
export function setCloseOnExec(fd: number): void {
  const flags = check(calls().fcntl(fd, F_GETFD), 'fcntl(F_GETFD)');
  if ((flags & FD_CLOEXEC) === 0) check(calls().fcntl(fd, F_SETFD, 'int', flags | FD_CLOEXEC), 'fcntl(F_SETFD)');
}

/** Whether a descriptor is marked close-on-exec. */
export function isCloseOnExec(fd: number): boolean {
  return (check(calls().fcntl(fd, F_GETFD), 'fcntl(F_GETFD)') & FD_CLOEXEC) !== 0;
}

/** macOS's fcntl command that writes a descriptor's path into a MAXPATHLEN (1024) byte buffer. */
const F_GETPATH = 50;
const MAXPATHLEN = 1024;

/**
 * The path the kernel knows an open descriptor by now (it follows renames of what was opened):
 * Linux's /proc/self/fd/N link, macOS's fcntl(F_GETPATH). A deleted directory reads as such on Linux
 * ("… (deleted)"), so it never equals a live path.
 */
export function descriptorPath(fd: number): string {
  if (process.platform === 'linux') return readlinkSync(`/proc/self/fd/${fd}`);
  if (process.platform !== 'darwin') throw new Error(`no descriptor paths on ${process.platform}`);
  const buf = Buffer.alloc(MAXPATHLEN);
  check(calls().fcntl(fd, F_GETPATH, 'uint8_t *', buf), 'fcntl(F_GETPATH)');
  const end = buf.indexOf(0);
  return buf.toString('utf8', 0, end < 0 ? buf.length : end);
}

/** getsockopt's level and option for the peer's pid, and the answer's size, per platform. */
const PEER_PID: Partial<Record<NodeJS.Platform, { level: number; option: number; size: number; pidAt: number }>> = {
  // SOL_SOCKET, SO_PEERCRED: struct ucred { pid_t pid; uid_t uid; gid_t gid; }, 12 bytes.
  linux: { level: 1, option: 17, size: 12, pidAt: 0 },
  // SOL_LOCAL, LOCAL_PEERPID: a pid_t.
  darwin: { level: 0, option: 2, size: 4, pidAt: 0 },
};

/**
 * The pid of the process that connected the unix socket `fd` (as the kernel recorded it at
 * connect time), or why it cannot be told. Nothing here reads text another process can shape.
 */
export function socketPeerPid(fd: number): { ok: true; pid: number } | { ok: false; reason: string } {
  const how = PEER_PID[process.platform];
  if (!how) return { ok: false, reason: `the kernel cannot be asked for a socket's peer on ${process.platform}` };
  const c = load();
  if ('error' in c) return { ok: false, reason: c.error };
  const buf = Buffer.alloc(how.size);
  const len = [how.size];
  if (c.getsockopt(fd, how.level, how.option, buf, len) !== 0) {
    const errno = c.errno();
    return { ok: false, reason: `getsockopt on the socket failed: ${ERRNO_NAMES.get(errno) ?? `errno ${errno}`}` };
  }
  const pid = buf.readInt32LE(how.pidAt);
  // 0: the peer is in another pid namespace, or the socket is not connected.
  if (pid <= 0) return { ok: false, reason: 'the kernel names no process on the other end of the socket' };
  return { ok: true, pid };
}
