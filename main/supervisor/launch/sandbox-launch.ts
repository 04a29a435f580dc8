// The command line of a sandboxed launch (DESIGN.md §11 "Sandbox"): `bwrap <rules> -- <agent argv>`
// on Linux, `sandbox-exec -p <profile> -- <agent argv>` on macOS, the same for both backends, every
// launch of the session (new, relaunch, resume by id, hand-off), so the agent's hooks and every
// process it starts run inside; in `allowlist` mode the agent runs behind the bridge to its proxy
// (sandbox-network.ts). A sandbox that cannot be made is a failure the launcher turns into
// attention(sandbox-unavailable): never a launch without it. Runs in the supervisor's process.
import { constants, copyFileSync, existsSync, mkdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxSettings } from '../../../common/daemon-settings.js';
import { fail, ok, type Result } from '../../../common/result.js';
import type { SessionSandbox } from '../../../common/session.js';
import type { AgentProfile, Env } from '../../agents/profile.js';
import { bwrapArgs, makeSandboxDirs } from '../../sandbox/bwrap-args.js';
import { bwrapProgram, sandboxAvailable } from '../../sandbox/sandbox-probe.js';
import type { SandboxRules } from '../../sandbox/sandbox-rules.js';
import { SANDBOX_EXEC, seatbeltArgv, seatbeltProfile } from '../../sandbox/seatbelt-profile.js';
import { sessionSandboxRules } from '../../sandbox/session-rules.js';
import { allowlistHosts, allowlistLaunch, type AllowlistLaunch, type SessionNetProxies } from './sandbox-network.js';

export interface SandboxedLaunch {
  sessionId: string;
  session: SessionSandbox | undefined;
  settings: Pick<SandboxSettings, 'readWrite' | 'readOnly'> & { allowedHosts?: readonly string[] | undefined };
  profile: Pick<AgentProfile, 'configPaths' | 'probeHosts' | 'apiHosts' | 'sandboxed'>;
  workDir: string;
  stateDir: string;
  moriHome: string;
  hooks: { spoolDir: string; readable: readonly string[] } | null;
  /** The environment the agent is launched with (HOME, the desktop's sockets, API base URLs). */
  env: Env;
  /** The bubblewrap program (sandboxProgram of the supervisor's own environment). */
  bwrap: string;
  command: string;
  args: readonly string[];
  /** The sessions' network proxies (`allowlist` mode). */
  proxies: SessionNetProxies;
  /** Which backend builds the sandbox; this process's platform by default. */
  platform?: NodeJS.Platform;
}

/** What to spawn, and the variables the sandbox adds to the agent's environment (the proxy's). */
export interface SandboxedLine {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The bubblewrap program the supervisor runs, from its own environment (MORI_BWRAP, else bwrap on PATH). */
export const sandboxProgram = (supervisorEnv: Env): string => bwrapProgram(supervisorEnv);

/** Whether this session's sandbox can be made here; ok for a session without one. Probed once per process. */
export async function sandboxReady(session: SessionSandbox | undefined, env: Env, platform: NodeJS.Platform = process.platform): Promise<Result<true>> {
  if (session?.on !== true) return ok(true);
  if (platform === 'darwin') return existsSync(SANDBOX_EXEC) ? ok(true) : fail('not-found', `the sandbox needs macOS's ${SANDBOX_EXEC}, which is not there`);
  if (platform !== 'linux') return fail('failed', `the sandbox is built with bubblewrap on Linux and Seatbelt on macOS; this is ${platform}`);
  return sandboxAvailable(bwrapProgram(env));
}

/** Seatbelt matches the path the kernel resolved (/private/tmp, not /tmp): each path that exists as its real path. */
function realRules(rules: SandboxRules): SandboxRules {
  const real = (ps: string[]): string[] => ps.map((p) => (existsSync(p) ? realpathSync(p) : p));
  return { ...rules, readWrite: real(rules.readWrite), readOnly: real(rules.readOnly), hidden: real(rules.hidden) };
}

/**
 * Copies each file to its new place once, before the agent's first sandboxed run: never over one
 * there (the CLI's own since), a source absent is nothing to carry over.
 */
function copyOnce(files: readonly { from: string; to: string }[]): Result<true> {
  for (const { from, to } of files) {
    try {
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      copyFileSync(from, to, constants.COPYFILE_EXCL);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOENT') return fail('failed', `${to}: cannot be made from ${from} for the sandbox (${(err as Error).message})`);
    }
  }
  return ok(true);
}

/** The command, arguments and added variables to spawn: the agent's own when the session has no sandbox. */
export async function sandboxedCommand(l: SandboxedLaunch): Promise<Result<SandboxedLine>> {
  if (l.session?.on !== true) return ok({ command: l.command, args: [...l.args], env: {} });
  const platform = l.platform ?? process.platform;
  // Bind mounts are Linux's: what the CLI changes to write its config through them (Seatbelt rules are per path, nothing to change).
  const own = platform === 'linux' ? (l.profile.sandboxed?.(l.env) ?? null) : null;
  const agentEnv = { ...l.env, ...own?.env };
  const copied = copyOnce(own?.copyOnce ?? []);
  if (!copied.ok) return copied;
  const configPaths = l.profile.configPaths?.(agentEnv) ?? [];
  let net: AllowlistLaunch | null = null;
  if (l.session.network === 'allowlist') {
    const hosts = allowlistHosts(l.profile, l.settings.allowedHosts ?? [], l.env);
    const r = await allowlistLaunch({ sessionId: l.sessionId, moriHome: l.moriHome, hosts, argv: [l.command, ...l.args], sharedLoopback: platform !== 'linux', proxies: l.proxies });
    if (!r.ok) return r;
    net = r.value;
  }
  const rules = sessionSandboxRules(
    { workDir: l.workDir, stateDir: l.stateDir, moriHome: l.moriHome, hooks: l.hooks, configPaths, env: agentEnv, uid: os.userInfo().uid },
    { network: l.session.network, home: l.session.home, readWrite: l.settings.readWrite, readOnly: [...l.settings.readOnly, ...(net?.readOnly ?? [])] },
  );
  const argv = net?.argv ?? [l.command, ...l.args];
  const env = { ...own?.env, ...net?.env };
  // The CLI's own dirs are made before its first run: inside a read-only home it could not make them.
  const makeDirs = [...(l.hooks ? [l.hooks.spoolDir] : []), ...configPaths.filter((p) => path.extname(p) === '')];
  if (platform === 'darwin') {
    const made = makeSandboxDirs(makeDirs);
    if (!made.ok) return made;
    try {
      const profile = seatbeltProfile(realRules(rules), realpathSync(l.env['HOME'] || os.homedir()), net?.proxy);
      const [command = '', ...args] = seatbeltArgv(profile, argv);
      return ok({ command, args, env });
    } catch (err) {
      return fail('failed', (err as Error).message);
    }
  }
  const made = bwrapArgs(rules, { cwd: l.workDir, makeDirs });
  if (!made.ok) return made;
  return ok({ command: l.bwrap, args: [...made.value, '--', ...argv], env });
}
