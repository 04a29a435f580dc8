// The soak's world: a temp root with its own MORI_HOME, TMPDIR, tmux socket and one git project per
// session (the fake agent in soak mode behind the claude profile, half on tmux, half direct; one
// project on a small tmpfs of its own where one can be mounted; and the real Claude Code's session
// when it is installed, soak/real-claude.ts), the daemon started and stopped through the real
// `mori`, and what runs now found in /proc.
// Runs in the soak's own Node process (Linux: /proc).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitRepo, runMori, runMoriAsync, type MoriRun } from '../testkit/mori-cli.js';
import { NetStandIns } from './stand-ins.js';
import { findRealClaude, REAL_TASK, RealClaude } from './real-claude.js';
import { mountSmallDisk, unmountSmallDisk, type Mounted } from '../testkit/small-disk.js';

export const FAKE_AGENT = fileURLToPath(new URL('../testkit/fake-agent.mjs', import.meta.url));
/** A turn of the soak agent: long enough that a nudge into a working agent is seen as one, short enough for many lines a minute. */
const TURN_MS = 1_500;
/** `mori init` runs this many at once: a Node start each, on two shared cores. */
const INIT_BATCH = 4;
/** The daemon probes its target every second (a person's daemon every 30 s online, 5 s offline): a network lost for seconds is seen. */
const PROBE_INTERVAL_MS = 1_000;
/** The jitter after a usage limit's reset the daemon draws from (a person's: 60 s): a run waits seconds past the last reset, not a minute. */
export const SOAK_LIMIT_JITTER_MS = 10_000;

export class World {
  readonly root: string;
  readonly home: string;
  readonly tmp: string;
  readonly records: string;
  readonly socket: string;
  readonly env: NodeJS.ProcessEnv;
  readonly names: string[];
  /** The probe target and the API stand-in (soak/stand-ins.ts), listening from init(). */
  readonly net = new NetStandIns();
  /** The session whose project is on a small filesystem of its own (the disk-full fault's), its mount, or why there is none. */
  readonly smallDiskSession: number;
  smallDisk: Mounted | null = null;
  smallDiskSkipped: string | null = null;
  /** The real Claude Code's session (index `sessions`, after the fake ones), or why there is none. */
  readonly real: RealClaude | null = null;
  readonly realSkipped: string | null = null;

  constructor(readonly sessions: number) {
    this.root = realTmp(`mori-soak-`);
    this.home = path.join(this.root, 'home');
    this.tmp = path.join(this.root, 'tmp');
    this.records = path.join(this.root, 'records');
    mkdirSync(this.home, { mode: 0o700 });
    mkdirSync(this.tmp);
    mkdirSync(this.records);
    this.socket = `mori-soak-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.names = Array.from({ length: sessions }, (_, i) => `s${i}`);
    // A direct session where there is one: its agent is the daemon's own child, so a full disk meets
    // the daemon's writes and the agent's in one process tree.
    this.smallDiskSession = Math.min(1, sessions - 1);
    const real = findRealClaude();
    if ('skipped' in real) this.realSkipped = real.skipped;
    else this.real = new RealClaude(this.root, sessions, real, FAKE_AGENT);
    this.env = {
      TMPDIR: this.tmp,
      MORI_TMUX_SOCKET: this.socket,
      // One program for every session: the real claude's wrapper (which runs the fake agent anywhere but its project), else the fake agent.
      MORI_AGENT_BIN_CLAUDE: this.real?.wrapper ?? FAKE_AGENT,
      CLAUDE_CONFIG_DIR: path.join(this.root, 'claude'),
      FAKE_AGENT_SOAK_DIR: this.records,
      FAKE_AGENT_SOAK_TURN_MS: String(TURN_MS),
      FAKE_AGENT_RECORD: '',
      FAKE_AGENT_SCRIPT: '',
      MORI_START_STAGGER_MS: '0',
      MORI_RESTART_BASE_MS: '100',
      MORI_PROBE_INTERVAL_MS: String(PROBE_INTERVAL_MS),
      MORI_LIMIT_JITTER_MS: String(SOAK_LIMIT_JITTER_MS),
    };
  }

  project(i: number): string {
    return path.join(this.root, this.names[i]!);
  }

  stateDir(i: number): string {
    return path.join(this.project(i), '.mori', this.names[i]!);
  }

  mori(...args: string[]): MoriRun {
    return runMori(args, { home: this.home, cwd: this.root, env: this.env });
  }

  /** One git project and session per name, half of them on tmux (so a tmux server's death hits some); then the real claude's, on tmux. */
  async init(): Promise<void> {
    await this.net.start();
    Object.assign(this.env, this.net.env());
    if (this.real !== null) {
      await this.real.start(String(this.env['CLAUDE_CONFIG_DIR']), path.join(this.root, 'real-home'), this.records);
      this.net.attach(this.real.api!);
    }
    for (let b = 0; b < this.sessions; b += INIT_BATCH) {
      const batch = this.names.slice(b, b + INIT_BATCH).map(async (name, k) => {
        const i = b + k;
        if (i === this.smallDiskSession) {
          // Mounted before the repository and the state dir are made, so all of them live on it.
          const m = mountSmallDisk(this.project(i));
          if ('skipped' in m) this.smallDiskSkipped = m.skipped;
          else this.smallDisk = m;
        }
        mkdirSync(this.project(i), { recursive: true });
        gitRepo(this.project(i));
        const backend = i % 2 === 0 ? 'tmux' : 'direct';
        const r = await runMoriAsync(['init', this.project(i), '--name', name, '--agent', 'claude', '--backend', backend, '--task', 'soak: work in turns'], {
          home: this.home,
          env: this.env,
        });
        if (r.code !== 0) throw new Error(`mori init ${name} failed: ${r.stderr}`);
      });
      await Promise.all(batch);
    }
    if (this.real !== null) {
      const args = ['init', this.real.project, '--name', this.real.name, '--agent', 'claude', '--backend', 'tmux', '--task', REAL_TASK];
      const r = await runMoriAsync(args, { home: this.home, env: this.env });
      if (r.code !== 0) throw new Error(`mori init ${this.real.name} failed: ${r.stderr}`);
    }
  }

  /** Writes the daemon's settings.json (read when it starts): call before `up`. */
  settings(value: Record<string, unknown>): void {
    writeFileSync(path.join(this.home, 'settings.json'), `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  }

  /** `mori up --daemon`: its pid, or null with the reason when another answers or it failed. */
  up(): { pid: number | null; out: string } {
    const r = this.mori('up', '--daemon', '--json');
    try {
      return { pid: Number((JSON.parse(r.stdout) as { pid: number }).pid), out: r.stdout };
    } catch {
      return { pid: null, out: `${r.stdout}${r.stderr}` };
    }
  }

  down(): MoriRun {
    return this.mori('down');
  }

  /** The daemon's pid as its socket's `mori ls` says, or null when none answers. */
  daemonPid(): number | null {
    const r = this.mori('ls', '--json');
    try {
      const pid = (JSON.parse(r.stdout) as { supervisor?: { pid?: number } }).supervisor?.pid;
      return typeof pid === 'number' ? pid : null;
    } catch {
      return null;
    }
  }

  /** Live processes of this world: agents by session index (the real claude's at its own), tmux servers of its socket, daemons of its home. */
  processes(): { agents: Map<number, number[]>; tmux: number[]; daemons: number[] } {
    const agents = new Map<number, number[]>();
    const tmux: number[] = [];
    const daemons: number[] = [];
    for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
      const pid = Number(d);
      let cmd: string[];
      try {
        cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        if (/^\S+\s+\S+\s+Z/.test(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/\(.*\)/, 'x'))) continue; // a zombie is dead
      } catch {
        continue;
      }
      if (cmd.includes(FAKE_AGENT)) {
        let cwd = '';
        try {
          cwd = readlinkSync(`/proc/${d}/cwd`);
        } catch {
          continue;
        }
        const i = this.names.findIndex((_, k) => cwd === this.project(k));
        if (i >= 0) agents.set(i, [...(agents.get(i) ?? []), pid]);
      } else if (this.real !== null && this.real.isItsAgent(linkOf(`/proc/${d}/exe`), linkOf(`/proc/${d}/cwd`))) {
        agents.set(this.real.index, [...(agents.get(this.real.index) ?? []), pid]);
      } else if (cmd[0]?.endsWith('tmux') && cmd.includes(this.socket)) {
        // A daemon's control-mode client is its child; any other tmux of the socket is a server (or an orphan).
        const parent = parentOf(pid);
        if (parent === null || !this.isDaemon(parent)) tmux.push(pid);
      } else if (cmd[2] === 'up' && this.isDaemon(pid)) {
        // A daemon's child with its command line is a pty's fork not yet exec'd (node-pty forks the daemon).
        const parent = parentOf(pid);
        if (parent === null || !this.isDaemon(parent)) daemons.push(pid);
      }
    }
    return { agents, tmux, daemons };
  }

  private isDaemon(pid: number): boolean {
    const env = environOf(pid);
    return env.includes(`MORI_HOME=${this.home}`) && env.includes('MORI_DAEMON_CHILD=1');
  }

  /** Private git dirs left in this world's TMPDIR. */
  privateGitDirs(): string[] {
    return readdirSync(this.tmp).filter((f) => f.startsWith('mori-git-'));
  }

  /** Ends whatever is left (a soak that threw) and removes the root. */
  cleanup(keep: boolean): void {
    this.down();
    // Each listener stops at once; its close callback (its last connections gone) is not waited for.
    this.net.stop().catch(() => {});
    const left = this.processes();
    for (const pid of [...[...left.agents.values()].flat(), ...left.tmux, ...left.daemons]) signal(pid, 'SIGKILL');
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    if (this.smallDisk) {
      // Kept: a copy of what the small disk held, as the mount goes with it.
      if (keep) {
        try {
          cpSync(this.smallDisk.dir, `${this.smallDisk.dir}.small-disk`, { recursive: true, verbatimSymlinks: true });
        } catch (err) {
          process.stderr.write(`soak: the small disk's files could not be kept: ${(err as Error).message}\n`);
        }
      }
      unmountSmallDisk(this.smallDisk);
    }
    this.smallDisk = null;
    if (!keep) rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** Where a /proc link points, or '' when the process is gone (or not ours to read). */
function linkOf(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
}

function environOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** A process in a few words for a finding: its pid, parent and command line. */
export function describe(pid: number): string {
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return `${pid} (gone)`;
  }
  return `${pid} (parent ${parentOf(pid)}: ${cmd.slice(0, 160)})`;
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The process group a pid leads or belongs to (/proc/<pid>/stat's fifth field), or null when it is gone. */
export function processGroup(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

/** Sends a signal; false when the process is gone. */
export function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** The resident set (KiB) and open fds of a process, or null when it is gone. */
export function footprint(pid: number): { rssKiB: number; fds: number } | null {
  try {
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return { rssKiB: Number(rss), fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null;
  }
}

function realTmp(prefix: string): string {
  const base = path.join(os.tmpdir(), `${prefix}${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(base);
  return base;
}
