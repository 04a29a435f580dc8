// The C library's calls through koffi: a socket's peer as the kernel knows it (a real child process
// connecting), and the *at file calls on real directories, refusing a symlink where O_NOFOLLOW says so.
import { spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync, writeSync, existsSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descriptorPath, libcAvailable, mkdirAt, openAt, renameAt, socketPeerPid, symlinkAt, SyscallError, unlinkAt } from '../../../main/os/libc.js';

const dir = (): string => mkdtempSync(path.join(tmpdir(), 'mori-libc-'));

describe.runIf(process.platform === 'linux')('libc', () => {
  it('loads here', () => {
    expect(libcAvailable()).toEqual({ ok: true });
  });

  it("names the process that connected a unix socket, whatever its socket's path says", async () => {
    const d = dir();
    const sockPath = path.join(d, 'c.sock');
    const seen = new Promise<{ fd: number; peer: ReturnType<typeof socketPeerPid> }>((resolve) => {
      const server = net.createServer((socket) => {
        const fd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
        resolve({ fd, peer: socketPeerPid(fd) });
        socket.destroy();
        server.close();
      });
      server.listen(sockPath);
    });
    // The client binds its own socket to a path that reads like another process's row first.
    const child = spawn(process.execPath, ['-e', `
      const net = require('net');
      const c = net.connect(${JSON.stringify(sockPath)});
      c.on('error', () => {});
      setTimeout(() => {}, 5000);
    `]);
    const { peer } = await seen;
    child.kill('SIGKILL');
    expect(peer).toEqual({ ok: true, pid: child.pid });
  });

  it('reports a descriptor that is not a socket', () => {
    const d = dir();
    const fd = openAt(-100, path.join(d), constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      const peer = socketPeerPid(fd);
      expect(peer.ok).toBe(false);
      expect(peer.ok ? '' : peer.reason).toMatch(/ENOTSOCK/);
    } finally {
      closeSync(fd);
    }
  });

  it('openat/mkdirat/renameat/unlinkat act inside the directory held, and refuse a symlink with O_NOFOLLOW', () => {
    const d = dir();
    const outside = dir();
    writeFileSync(path.join(outside, 'victim'), 'keep');
    symlinkSync(outside, path.join(d, 'link'));
    const root = openAt(-100, d, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      // A symlinked directory is refused, never followed.
      // (Linux answers ENOTDIR when O_DIRECTORY meets the link, ELOOP without it.)
      expect(() => openAt(root, 'link', constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)).toThrow(SyscallError);
      expect(() => openAt(root, 'link', constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)).toThrow(/ENOTDIR/);
      expect(() => openAt(root, 'link', constants.O_RDONLY | constants.O_NOFOLLOW)).toThrow(/ELOOP/);
      mkdirAt(root, 'sub', 0o755);
      const sub = openAt(root, 'sub', constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      const fd = openAt(sub, 'f.tmp', constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o640);
      writeSync(fd, 'hello');
      closeSync(fd);
      renameAt(sub, 'f.tmp', sub, 'f');
      expect(readFileSync(path.join(d, 'sub', 'f'), 'utf8')).toBe('hello');
      expect(readlinkSync(`/proc/self/fd/${sub}`)).toBe(path.join(d, 'sub'));
      unlinkAt(sub, 'f');
      closeSync(sub);
      unlinkAt(root, 'sub', { dir: true });
      expect(existsSync(path.join(d, 'sub'))).toBe(false);
      // The link itself can be removed; its target is untouched.
      unlinkAt(root, 'link');
      expect(readFileSync(path.join(outside, 'victim'), 'utf8')).toBe('keep');
      expect(() => unlinkAt(root, 'missing')).toThrow(/unlinkat "missing" failed: ENOENT/);
    } finally {
      closeSync(root);
    }
  });

  it("symlinkat makes a link holding its target as given, and a descriptor's path follows its directory's rename", () => {
    const d = dir();
    const fd = openAt(-100, d, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      symlinkAt('../nowhere', fd, 'l');
      expect(readlinkSync(path.join(d, 'l'))).toBe('../nowhere');
      expect(() => symlinkAt('x', fd, 'l')).toThrow(/symlinkat "l" failed: EEXIST/);
      expect(descriptorPath(fd)).toBe(d);
      renameSync(d, `${d}-moved`);
      expect(descriptorPath(fd)).toBe(`${d}-moved`);
    } finally {
      closeSync(fd);
    }
  });
});
