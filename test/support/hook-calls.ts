// What the real-CLI hook tests share: `mori up --json`'s event lines with the time each arrived,
// the session's activities, the launch's spool dir (from the nonce Mori keeps per session) and the
// time each hook call's spool file appeared in it, and ending every agent on the test's tmux server.
import { spawnSync } from 'node:child_process';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Up, UpHarness } from './mori-up.js';
import { sessionJson } from './agent-clis/real-agents.js';

/** Every agent on the test's tmux server killed with its process group (some CLIs outlive a SIGHUP). */
export function killPanes(harness: UpHarness): void {
  const panes = spawnSync('tmux', ['-L', harness.socketName, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' });
  for (const pid of (panes.stdout ?? '').split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** `mori up --json`'s event lines with the time each reached this process. */
export function timedLines(u: Up): { at: number; e: Record<string, unknown> }[] {
  const out: { at: number; e: Record<string, unknown> }[] = [];
  let rest = '';
  u.child.stdout?.on('data', (d: Buffer) => {
    const at = Date.now();
    rest += d.toString();
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) if (l.startsWith('{')) out.push({ at, e: JSON.parse(l) as Record<string, unknown> });
  });
  return out;
}

export const started = (u: Up): Record<string, unknown>[] => u.lines().filter((e) => e['type'] === 'session.started');
export const activities = (u: Up): string[] => u.lines().filter((e) => e['type'] === 'session.activity').map((e) => String(e['to']));

/** Session `name`'s current spool dir, from the nonce Mori keeps per session (`home`: Mori's home when not the harness's). */
export function spoolDir(harness: UpHarness, name: string, home = harness.home): string {
  const id = sessionJson(harness, name).id;
  const nonce = readFileSync(path.join(home, 'hooks', 'runs', id), 'utf8').trim();
  return path.join(home, 'hooks', nonce);
}

/** The time each hook call's spool file appeared in `dir`, by event, seen as the daemon sees it (the dir watched). */
export function watchCalls(dir: string): { calls: Map<string, number[]>; watcher: FSWatcher } {
  const calls = new Map<string, number[]>();
  const watcher = watch(dir, (_kind, name) => {
    const m = /^[A-Za-z0-9]+\.([A-Za-z][A-Za-z0-9_-]*)$/.exec(String(name ?? ''));
    if (m === null) return;
    const list = calls.get(m[1]!) ?? [];
    // Each call is one rename in; its removal by the daemon is a second event of the same name.
    list.push(Date.now());
    calls.set(m[1]!, list);
  });
  return { calls, watcher };
}

/** When the fake agent (testkit/fake-agent.mjs) called its hook `name`, from its record file (epoch ms), once it has. */
export function fakeHookCalledAt(record: string, name: string): number | null {
  let text = '';
  try {
    text = readFileSync(record, 'utf8');
  } catch {
    return null;
  }
  const call = text
    .split('\n')
    .filter((l) => l.includes('"event":"hook"'))
    .map((l) => JSON.parse(l) as { name: string; calledAt: number })
    .find((r) => r.name === name);
  return call?.calledAt ?? null;
}
