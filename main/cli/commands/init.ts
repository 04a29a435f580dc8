// `mori init [DIR] --name N --agent PROFILE [--task TEXT] [--backend tmux|direct] [--command CMD]
// [--resume auto|by-id|fresh] [--worktree [--branch B]] [--adopt claude:ID]`: creates the state dir and registers the session; with --worktree, in a
// new git worktree of DIR's repository (session-worktree.ts), which becomes the session's project. A `--command` given here is the person's own, so
// it is approved in the Mori home's trust store at once (DESIGN.md §7), and so refused from inside a
// supervised agent (approver-check.ts). Runs in the CLI process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { BackendName, PROFILE_NAMES, ProfileName, RESUME_MODES, ResumeMode, type SessionWorktree } from '../../../common/session.js';
import { fail } from '../../../common/result.js';
import { findAgentProgram } from '../../agents/agent-program.js';
import { checkTemplatePlaceholders } from '../../agents/command-template.js';
import { PROFILES } from '../../agents/profiles.js';
import { agentCommandNeedsTrust, approveAgentCommand } from '../../checks/trust.js';
import { moriHome } from '../../state/mori-home.js';
import { controlSocketPath } from '../../daemon/control-socket-path.js';
import { createSessionWorktree } from '../../git/session-worktree.js';
import { createSession } from '../../state/state-dir.js';
import { refusedInsideAgent } from '../approver-check.js';
import { adoptTarget } from '../adopt-target.js';
import { readSettings } from '../../daemon/daemon-settings.js';
import { newSessionSandbox } from '../../../common/sandbox-choice.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { SESSION_STATE } from '../../../common/state-files.js';

interface InitOptions extends OutputOptions {
  name?: string;
  agent?: string;
  task?: string;
  backend?: string;
  command?: string;
  resume?: string;
  worktree?: boolean;
  branch?: string;
  /** commander's --sandbox/--no-sandbox: absent when neither is given. */
  sandbox?: boolean;
  /** `<agent>:<id>`: a conversation the agent's own supervisor holds, taken up by this session (adopt-target.ts). */
  adopt?: string;
}

/** tmux when it is installed (agents then outlive the app), else direct. */
function defaultBackend(): 'tmux' | 'direct' {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0 ? 'tmux' : 'direct';
}

/**
 * The command that starts the new session as things are: `mori start` when a supervisor runs (it
 * lists the session already, and the window offers Start), else `mori up`, which starts one.
 */
async function startWords(name: string): Promise<string> {
  const home = moriHome();
  // No socket file, no supervisor: nothing of the protocol is loaded to say so.
  if (!existsSync(controlSocketPath(home))) return `\`mori up ${name}\``;
  const { daemonAnswering } = await import('../../daemon-client/daemon-process.js');
  return (await daemonAnswering(home)) ? `\`mori start ${name}\` (or Start in the window)` : `\`mori up ${name}\``;
}

export function registerInit(program: Command): void {
  program
    .command('init [dir]')
    .description('create a session: <dir>/.mori/<name>/ with its state files, and register it')
    .requiredOption('--name <name>', 'session name (lowercase slug, unique in the project)')
    .option('--agent <profile>', `agent profile: ${PROFILE_NAMES.join(', ')} (required unless --adopt names it)`)
    .option('--adopt <agent:id>', "take up a background session the agent's own supervisor holds (claude:<id> from `claude agents`): Mori opens it there, with its checks and state around it")
    .option('--task <text>', 'the task, written into session_state.md')
    .option('--backend <backend>', 'tmux (agents outlive Mori) or direct (default: tmux when installed)')
    .option('--command <cmd>', 'command line for the shell and custom profiles ({prompt} and {id} are filled in)')
    .option('--resume <mode>', `how a relaunch takes up the conversation: ${RESUME_MODES.join(', ')} (default: the daemon's setting, auto)`)
    .option('--worktree', 'work in a new git worktree of the repository (under the Mori home), on a new branch')
    .option('--branch <name>', 'the worktree\'s new branch (default: mori/<name>)')
    .option('--sandbox', "run the agent in a sandbox: it reaches its project, its agent's own dirs and the network, not Mori, the person's other files or other sessions (default: the daemon's setting, off)")
    .option('--no-sandbox', 'run the agent without a sandbox, as the person\'s own processes run')
    .option('--json', 'print JSON')
    .action(async (dir: string | undefined, opts: InitOptions) => {
      if (opts.branch !== undefined && !opts.worktree) return reportFailure(fail('usage', '--branch is only for --worktree'), opts);
      const adopted = opts.adopt === undefined ? null : await adoptTarget(opts.adopt, process.env);
      if (adopted !== null && !adopted.ok) return reportFailure(adopted, opts);
      if (adopted !== null && opts.agent !== undefined && opts.agent !== adopted.value.profile) return reportFailure(fail('usage', `--agent ${opts.agent} and --adopt ${opts.adopt} name different agents`), opts);
      if (adopted === null && opts.agent === undefined) return reportFailure(fail('usage', '--agent is required (or --adopt <agent>:<id>)'), opts);
      const profile = ProfileName.safeParse(adopted?.value.profile ?? opts.agent);
      if (!profile.success) return reportFailure(fail('usage', `--agent: "${opts.agent}" is not a profile; use one of ${PROFILE_NAMES.join(', ')}`), opts);
      const backend = BackendName.safeParse(opts.backend ?? defaultBackend());
      if (!backend.success) return reportFailure(fail('usage', `--backend: "${opts.backend}" is not a backend; use tmux or direct`), opts);
      const resume = opts.resume === undefined ? undefined : ResumeMode.safeParse(opts.resume);
      if (resume !== undefined && !resume.success) return reportFailure(fail('usage', `--resume: "${opts.resume}" is not a resume mode; use one of ${RESUME_MODES.join(', ')}`), opts);
      const needsCommand = PROFILES[profile.data].takesCommand === true;
      if (needsCommand && !opts.command) return reportFailure(fail('usage', `--command is required for the ${profile.data} profile`), opts);
      if (!needsCommand && opts.command) return reportFailure(fail('usage', `--command is only for the shell and custom profiles, not ${profile.data}`), opts);
      if (opts.command) {
        const placeholders = checkTemplatePlaceholders(opts.command);
        if (!placeholders.ok) return reportFailure(fail('usage', `--command: ${placeholders.message}`), opts);
      }
      // A session is an agent the person starts, and a command is approved below: only the person may,
      // so nothing is created when an agent asks (an agent does not start agents).
      const refused = await refusedInsideAgent(
        moriHome(),
        opts.command ? '`mori init --command` (creating a session with its command approved)' : '`mori init` (creating a session: it starts an agent on the task it is given)',
      );
      if (refused) return reportFailure(refused, opts);

      const settings = readSettings(moriHome());
      if (!settings.ok) return reportFailure(settings, opts);
      const sandbox = newSessionSandbox(opts.sandbox, settings.value.sandbox);
      if (!sandbox.ok) return reportFailure(sandbox, opts);
      // An adopted conversation runs where the agent's own supervisor started it: no sandbox or worktree of Mori's reaches it.
      if (adopted !== null && (opts.worktree || opts.sandbox === true)) return reportFailure(fail('usage', `--adopt takes the session where ${opts.adopt ?? ''} runs: not with --worktree or --sandbox`), opts);
      const sandboxOf = adopted !== null ? undefined : sandbox.value;
      let worktree: SessionWorktree | undefined;
      if (opts.worktree) {
        const made = await createSessionWorktree(path.resolve(dir ?? '.'), opts.name ?? '', opts.branch, moriHome());
        if (!made.ok) return reportFailure(made, opts);
        worktree = made.value;
      }
      const created = await createSession({
        projectDir: worktree?.path ?? path.resolve(dir ?? adopted?.value.held.cwd ?? '.'),
        worktree,
        name: opts.name ?? '',
        profile: profile.data,
        task: opts.task,
        backend: backend.data,
        command: opts.command,
        resume: resume?.data,
        sandbox: sandboxOf,
        adopted: adopted ? { agentSessionId: adopted.value.held.agentSessionId, cwd: adopted.value.held.cwd } : undefined,
      });
      if (!created.ok) return reportFailure(worktree ? fail(created.code, `${created.message} (the worktree ${worktree.path} on branch ${worktree.branch} is left in place)`) : created, opts);
      const { stateDir, session, gitExclude } = created.value;
      if (agentCommandNeedsTrust(session.agent)) {
        const approved = await approveAgentCommand(moriHome(), stateDir, session);
        if (!approved.ok) return reportFailure(fail(approved.code, `created ${stateDir}, but its agent command could not be approved: ${approved.message}`), opts);
      }
      // The session is created either way: the program may be installed later, before `mori up`.
      const program = findAgentProgram(PROFILES[profile.data], process.env, opts.command);
      const warnings = program.found ? [] : [`"${program.program}" (the ${profile.data} agent's program) is not found on PATH; install it: ${program.install}`];
      if (gitExclude.refused) warnings.push(gitExclude.refused);
      for (const w of warnings) if (!opts.json) process.stderr.write(`mori: warning: ${w}\n`);
      reportSuccess(
        { ok: true, id: session.id, name: session.name, stateDir, sandboxed: session.sandbox?.on === true, gitExclude: gitExclude.changed, warnings, ...(worktree ? { worktree } : {}) },
        [
          `Created session "${session.name}" (${session.id})`,
          ...(worktree ? [`  worktree: ${worktree.path} (branch ${worktree.branch})`] : []),
          `  state dir: ${stateDir}`,
          `  agent: ${session.agent.profile}, backend: ${session.backend}${session.sandbox?.on ? `, sandboxed (network ${session.sandbox.network}, home ${session.sandbox.home})` : ''}`,
          ...(gitExclude.changed ? [`  added .mori/ to ${gitExclude.changed}`] : []),
          `Next: describe the task in ${path.join(stateDir, SESSION_STATE)}, then ${await startWords(session.name)}.`,
        ].join('\n'),
        opts,
      );
    });
}
