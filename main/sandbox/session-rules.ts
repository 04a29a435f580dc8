// The sandbox rules of one launch (DESIGN.md §11 "Sandbox"), from the session (its work dir and state
// dir), its agent profile's own dirs, this launch's hook files and the person's settings. Pure: the
// paths are computed, never looked at (bwrap-args.ts skips those that are absent). Runs in the
// supervisor's process.
import path from 'node:path';
import { ENVIRONMENT, SESSION_STATE, WORK_LOG } from '../../common/state-files.js';
import type { Env } from '../agents/profile.js';
import type { SandboxHome, SandboxNetwork, SandboxRules } from './sandbox-rules.js';

/** What the person chose for this session's sandbox, and the paths they list for every sandbox. */
export interface SandboxChoice {
  network: SandboxNetwork;
  home: SandboxHome;
  /** Extra paths, `~/` for the home; e.g. package caches. */
  readWrite: readonly string[];
  /** Extra paths, `~/` for the home; e.g. `~/.gitconfig`. */
  readOnly: readonly string[];
  allowedHosts?: readonly string[];
}

export interface LaunchPlaces {
  /** Where the agent works: the project, or the session's worktree. */
  workDir: string;
  /** `<project>/.mori/<name>`: its three state files are the agent's to write, the rest read-only. */
  stateDir: string;
  moriHome: string;
  /** This launch's hook spool (written by the hooks) and the files its hooks read (the report script, the settings layer); null: no hooks. */
  hooks: { spoolDir: string; readable: readonly string[] } | null;
  /** The agent CLI's own config and data dirs (its profile's configPaths). */
  configPaths: readonly string[];
  /** The launch's environment: HOME, the desktop's sockets (XDG_RUNTIME_DIR, SSH_AUTH_SOCK, DBUS…), TMUX_TMPDIR. */
  env: Env;
  uid: number;
}

/** A person's `~/x` made absolute against the launch's home; other relative paths are refused by the settings schema. */
function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  return p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(p);
}

/** The file a D-Bus address names (`unix:path=/run/user/1000/bus,guid=…`); null for an abstract or other address. */
function dbusPath(address: string | undefined): string | null {
  const m = /(?:^|;)unix:path=([^,;]+)/.exec(address ?? '');
  return m?.[1] ?? null;
}

const absolute = (p: string | undefined): string | null => (p !== undefined && path.isAbsolute(p) ? p : null);

/** The person's desktop session: sockets a process of theirs can reach to act as them (a keyring, an ssh or gpg agent, a display). */
function desktopPaths(env: Env, home: string, uid: number): string[] {
  const runtime = absolute(env['XDG_RUNTIME_DIR']) ?? `/run/user/${uid}`;
  const wayland = env['WAYLAND_DISPLAY'];
  const found = [
    runtime,
    absolute(env['SSH_AUTH_SOCK']),
    dbusPath(env['DBUS_SESSION_BUS_ADDRESS']),
    // GPG_AGENT_INFO is `socket:pid:1`.
    absolute(env['GPG_AGENT_INFO']?.split(':')[0]),
    wayland !== undefined && wayland !== '' ? path.resolve(runtime, wayland) : null,
  ];
  return [`/run/user/${uid}`, '/tmp/.X11-unix', path.join(home, '.gnupg'), ...found.filter((p): p is string => p !== null)];
}

/** Where tmux servers keep their sockets: the one holding every other agent must not be reachable. */
function tmuxPaths(env: Env, uid: number): string[] {
  const out = [path.join(env['TMUX_TMPDIR'] || '/tmp', `tmux-${uid}`)];
  const tmux = env['TMUX']?.split(',')[0];
  if (tmux !== undefined && path.isAbsolute(tmux)) out.push(path.dirname(tmux));
  return out;
}

/** The rules of one launch: every path absolute, each list without repeats. */
export function sessionSandboxRules(at: LaunchPlaces, choice: SandboxChoice): SandboxRules {
  const home = at.env['HOME'] !== undefined && at.env['HOME'] !== '' ? path.resolve(at.env['HOME']) : '/';
  const readWrite = [
    at.workDir,
    ...[SESSION_STATE, ENVIRONMENT, WORK_LOG].map((f) => path.join(at.stateDir, f)),
    ...at.configPaths,
    ...(at.hooks !== null ? [at.hooks.spoolDir] : []),
    ...choice.readWrite.map((p) => expandHome(p, home)),
  ];
  // The state dir whole (session.json, transcript/) read-only, its three files put back writable above.
  const readOnly = [at.stateDir, ...(at.hooks?.readable ?? []), ...choice.readOnly.map((p) => expandHome(p, home))];
  const hidden = [
    at.moriHome,
    // Other sessions' state dirs: the state root is emptied, this session's dir is put back.
    path.dirname(at.stateDir),
    ...desktopPaths(at.env, home, at.uid),
    ...tmuxPaths(at.env, at.uid),
    // A private /tmp: another session's files and every socket there (tmux's among them) are gone.
    '/tmp',
    ...(choice.home === 'hidden' && home !== '/' ? [home] : []),
  ];
  return {
    readWrite: unique(readWrite.map((p) => path.resolve(p))),
    readOnly: unique(readOnly.map((p) => path.resolve(p))),
    hidden: unique(hidden.map((p) => path.resolve(p))),
    home: choice.home,
    network: choice.network,
    allowedHosts: [...(choice.allowedHosts ?? [])],
  };
}

const unique = (xs: string[]): string[] => [...new Set(xs)];
