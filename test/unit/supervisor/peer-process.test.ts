// The peer of a control-socket connection as the kernel names it (peer-process.ts), on real unix
// sockets and real processes: this process, a child that connects and stays, and a child that
// connects, hands its socket to a grandchild and exits (its pid then names no one: refused).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { peerAtAccept, type ConnectionPeer } from '../../../main/daemon/peer-process.js';
import { until } from '../../../testkit/until.js';

let dir: string | null = null;
let server: net.Server | null = null;
const children: ChildProcess[] = [];
const grandchildren: number[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const pid of grandchildren.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A listening socket whose accepted connections' peers are read at accept, as the daemon does. */
async function listen(): Promise<{ file: string; peers: ConnectionPeer[] }> {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mori-peer-'));
  const file = path.join(dir, 's.sock');
  const peers: ConnectionPeer[] = [];
  server = net.createServer((socket) => {
    peers.push(peerAtAccept(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server?.listen(file, resolve));
  return { file, peers };
}

describe.runIf(process.platform === 'linux' || process.platform === 'darwin')('peerAtAccept', () => {
  it('names this process, and a child that connected while it runs', async () => {
    const { file, peers } = await listen();
    const own = net.connect(file);
    await until('accepted', () => peers.length === 1);
    expect(await peers[0]?.lookup()).toEqual({ known: true, pid: process.pid });
    own.destroy();
    const child = spawn(process.execPath, ['-e', `require('net').connect(${JSON.stringify(file)}); setTimeout(() => {}, 30000)`], { stdio: 'ignore' });
    children.push(child);
    await until('the child accepted', () => peers.length === 2);
    expect(await peers[1]?.lookup()).toEqual({ known: true, pid: child.pid });
  });

  it('refuses to name a connection whose connecting process exited, its socket held by a grandchild', async () => {
    const { file, peers } = await listen();
    // Connects, starts a grandchild that holds the socket as its fd 3, says its pid, and exits.
    const script = `
      const s = require('net').connect(${JSON.stringify(file)}, () => {
        const g = require('child_process').spawn('sleep', ['30'], { stdio: ['ignore', 'ignore', 'ignore', s], detached: true });
        process.stdout.write(String(g.pid));
        g.unref();
        process.exit(0);
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await exited;
    grandchildren.push(Number(out));
    expect(Number(out)).toBeGreaterThan(0);
    await until('accepted', () => peers.length === 1);
    const lookup = await peers[0]?.lookup();
    expect(lookup).toMatchObject({ known: false, reason: expect.stringMatching(new RegExp(`process that connected \\(pid ${child.pid}\\) ha(s|d) exited`)) as unknown });
  });
});
