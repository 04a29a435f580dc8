// The sessions (DESIGN.md §12): `list`, `sessions.listing` (what `mori ls` prints, usage figures included), `start`, `stop`,
// the person's choice at a usage limit, `send`, `session.rename` (`session.remove` is session-remove.ts), and
// `session.init`, which creates a session from the new-session dialog, approves the command the person typed for a shell or custom
// profile, and loads it into the supervisor. Runs in the daemon.
import type { IpcResult } from '../../../common/ipc.js';
import { fail, ok } from '../../../common/result.js';
import { checkTemplatePlaceholders } from '../../agents/command-template.js';
import { PROFILES } from '../../agents/profiles.js';
import { agentCommandNeedsTrust, approveAgentCommand } from '../../checks/trust.js';
import type { SessionWorktree } from '../../../common/session.js';
import { createSessionWorktree } from '../../git/session-worktree.js';
import { createSession } from '../../state/state-dir.js';
import { newSessionSandbox } from '../../../common/sandbox-choice.js';
import { readSettings } from '../daemon-settings.js';
import { listRegisteredSessions } from '../../supervisor/session/session-listing.js';
import { bad, type Handler } from './context.js';
import { listedUsage, warnShare } from './usage.js';

export const listSessions: Handler<'list'> = (_p, ctx) => ok(ctx.supervisor.list());
export const startSession: Handler<'start'> = (p, ctx) => ctx.supervisor.startSession(p.session);
export const stopSession: Handler<'stop'> = (p, ctx) => ctx.supervisor.stopSession(p.session);
export const limitResumeNow: Handler<'limit.resume-now'> = (p, ctx) => ctx.supervisor.limitChoice(p.session, 'resume-now');
export const limitDontResume: Handler<'limit.dont-resume'> = (p, ctx) => ctx.supervisor.limitChoice(p.session, 'dont-resume');
export const handOffSession: Handler<'session.handoff'> = (p, ctx) => ctx.supervisor.handOff(p.session, { to: p.profile, reason: p.reason, command: p.command });
export const sendToSession: Handler<'send'> = (p, ctx) => ctx.supervisor.send(p.session, p.text, p.enter);

export const renameSession: Handler<'session.rename'> = async (p, ctx) => {
  const r = await ctx.supervisor.admin.rename(p.session, p.name);
  await ctx.events.sync();
  return r;
};

export const initSession: Handler<'session.init'> = async (p, ctx) => {
  const { projectDir, name, profile, task, backend, command } = p;
  const needsCommand = PROFILES[profile].takesCommand === true;
  if (needsCommand && !command) return bad(`session.init: a command is required for the ${profile} profile`);
  if (!needsCommand && command) return bad(`session.init: a command is only for the shell and custom profiles, not ${profile}`);
  const placeholders = command ? checkTemplatePlaceholders(command) : null;
  if (placeholders && !placeholders.ok) return bad(`session.init: ${placeholders.message}`);
  const settings = readSettings(ctx.home);
  if (!settings.ok) return settings;
  const sandbox = newSessionSandbox(p.sandbox, settings.value.sandbox, p.sandboxNetwork);
  if (!sandbox.ok) return sandbox;
  let worktree: SessionWorktree | undefined;
  if (p.worktree) {
    const made = await createSessionWorktree(projectDir, name, p.worktree.branch, ctx.home);
    if (!made.ok) return made;
    worktree = made.value;
  }
  const created = await createSession({ projectDir: worktree?.path ?? projectDir, worktree, name, profile, task, backend, command, resume: p.resume, sandbox: sandbox.value, home: ctx.home });
  if (!created.ok) return created;
  // The person typed this command in the new-session dialog, as with `mori init --command`: it is
  // approved now; any later change to it in session.json needs approval again.
  if (agentCommandNeedsTrust(created.value.session.agent)) {
    const approved = await approveAgentCommand(ctx.home, created.value.stateDir, created.value.session);
    if (!approved.ok) return fail(approved.code, `created ${created.value.stateDir}, but its command could not be approved: ${approved.message}`);
  }
  const info = ctx.supervisor.loadSession(created.value.session.id);
  if (info.ok) await ctx.events.sync();
  return info;
};

/** `mori ls` from the daemon: the same listing the CLI would read itself, with each session's live view. */
export const listSessionsWithState: Handler<'sessions.listing'> = async (_p, ctx) => {
  const listed = listRegisteredSessions(ctx.home, new Map(ctx.supervisor.list().map((s) => [s.id, s])), true);
  if (!listed.ok) return listed;
  // A row whose agent's record was read carries its usage figures (the readers keep their offsets).
  const rows = [];
  const warn = warnShare(ctx.home);
  for (const entry of listed.value) {
    const usage = entry.session === undefined ? null : await listedUsage(ctx.usage, entry.session, warn);
    rows.push(usage === null ? entry : { ...entry, usage });
  }
  // The entries are plain JSON objects; the schema names only the fields a client reads.
  return ok(rows as IpcResult<'sessions.listing'>);
};
