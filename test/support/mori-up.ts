// Test harness for `mori up` as a real process: a temp home and git project, the fake agent behind
// the claude profile, its own tmux socket, JSON event lines, and the fake agent's start records.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitRepo, MORI_BIN, runMori, tempDir, type MoriRun } from '../../testkit/mori-cli.js';
import { collectTree } from '../../main/os/process-tree.js';
import { readPidRecords } from '../../main/terminals/pid-registry.js';

export const FAKE_AGENT = fileURLToPath(new URL('../../testkit/fake-agent.mjs', import.meta.url));
/** Generous: two cores shared with other test runs. */
export const DEADLINE_MS = 25_000;

export interface Up {
  child: ChildProcess;
  lines: () => Record<string, unknown>[];
  exited: Promise<number | null>;
  stderr: () => string;
}

export interface AgentStart {
  /** The arguments other than the hooks' `--settings <file>`. */
  argv: string[];
  /** The settings layer it was given (`--settings`), or null. */
  settings: string | null;
  sessionId: string | null;
  resumeId: string | null;
  pid: number;
  at?: number;
}

export class UpHarness {
  readonly tmp: string;
  readonly home: string;
  readonly project: string;
  readonly record: string;
  readonly socketName: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly children: ChildProcess[] = [];

  constructor(prefix: string, env: NodeJS.ProcessEnv = {}) {
    this.tmp = tempDir(prefix);
    this.home = path.join(this.tmp, 'home');
    this.project = path.join(this.tmp, 'project');
    this.record = path.join(this.tmp, 'record.jsonl');
    mkdirSync(this.project);
    gitRepo(this.project);
    this.socketName = `mori-test-${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.env = {
      MORI_TMUX_SOCKET: this.socketName,
      MORI_AGENT_BIN_CLAUDE: FAKE_AGENT,
      CLAUDE_CONFIG_DIR: path.join(this.tmp, 'claude'),
      FAKE_AGENT_RECORD: this.record,
      FAKE_AGENT_SCRIPT: '',
      MORI_START_STAGGER_MS: '0',
      MORI_RESTART_BASE_MS: '100',
      // The agents' real API hosts are unreachable here: no network interruptions unless a test sets a probe.
      MORI_PROBE: 'none',
      ...env,
    };
  }

  cleanup(): void {
    for (const c of this.children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    // A daemon a test started (or a command started for it) goes with the test. A socket file that
    // nothing listens on (left by the `mori up` killed above) needs no `mori down`, which would only
    // find no daemon there: a Node start saved per test.
    const socket = path.join(this.home, 'mori.sock');
    if (existsSync(socket) && mayBeListening(socket)) this.mori('down');
    // The direct agents of a supervisor killed above, as the next daemon's orphan sweep would end
    // them: an agent that ignores its terminal's hangup (Gemini CLI does) would outlive the test.
    for (const record of readPidRecords(path.join(this.home, 'run'))) {
      for (const pid of collectTree(null, record.marker)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    // Likewise the tmux agents: a pane's program that ignores the hangup of kill-server would live on.
    const panes = spawnSync('tmux', ['-L', this.socketName, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' }).stdout ?? '';
    for (const pane of panes.split('\n').map(Number).filter((pid) => pid > 0)) {
      for (const pid of collectTree(pane, null)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    spawnSync('tmux', ['-L', this.socketName, 'kill-server'], { stdio: 'ignore' });
    // A server kill-server cannot reach (its socket file gone) lives on with its sessions: ended by
    // pid, found by the socket name it was started with (a tmux server keeps its first client's argv).
    for (const pid of processesWithArgs(['-L', this.socketName])) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // An agent may still be writing its files as it dies: retry instead of failing on ENOTEMPTY.
    rmSync(this.tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }

  up(args: string[] = [], env: NodeJS.ProcessEnv = {}): Up {
    const child = spawn(process.execPath, [MORI_BIN, 'up', '--json', ...args], {
      cwd: this.project,
      env: { ...process.env, MORI_HOME: this.home, ...this.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.push(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return {
      child,
      exited,
      stderr: () => err,
      // Whole lines only: the last one may still be arriving (a pipe hands over chunks, not lines).
      lines: () =>
        out
          .slice(0, out.lastIndexOf('\n') + 1)
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>),
    };
  }

  mori(...args: string[]): MoriRun {
    return runMori(args, { home: this.home, cwd: this.project, env: this.env });
  }

  /** The fake agent's start records, oldest first. */
  starts(): AgentStart[] {
    try {
      return readFileSync(this.record, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((r) => r['event'] === 'start') as unknown as AgentStart[];
    } catch {
      return [];
    }
  }

  workLog(name: string): string {
    return readFileSync(path.join(this.project, '.mori', name, 'work_log.md'), 'utf8');
  }

  stateDir(name: string): string {
    return path.join(this.project, '.mori', name);
  }

  init(name: string, backend: 'tmux' | 'direct'): void {
    const r = this.mori('init', this.project, '--name', name, '--agent', 'claude', '--backend', backend, '--task', 'write the thing');
    if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
  }
}

/** Processes whose argv holds `args` one after another (Linux: /proc; elsewhere none found). */
function processesWithArgs(args: string[]): number[] {
  const needle = `\0${args.join('\0')}\0`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.flatMap((d) => {
    try {
      return `\0${readFileSync(`/proc/${d}/cmdline`, 'latin1')}`.includes(needle) ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Whether a Unix socket may have a listener: false only when the kernel's table of Unix sockets
 * (/proc/net/unix, Linux) holds no listening one bound to `file`; true where that table cannot be read.
 */
export function mayBeListening(file: string): boolean {
  let table: string;
  try {
    table = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return true;
  }
  // Fields: Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 is __SO_ACCEPTCON (listening).
  return table.split('\n').some((line) => {
    const f = line.trim().split(/\s+/);
    return f[3] === '00010000' && f.slice(7).join(' ') === file;
  });
}

/** The harness's waits are testkit/until.ts's. */
export { until } from '../../testkit/until.js';

export const hasEvent = (u: Up, type: string, match: Record<string, unknown> = {}): boolean =>
  u.lines().some((e) => e['type'] === type && Object.entries(match).every(([k, v]) => e[k] === v));
