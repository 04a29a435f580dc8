// Checks as the control API serves them (DESIGN.md §7, §12): the derived list with each check's
// source and whether it may run, plus the hash of the list that needs approval, and the agent command
// session.json gives a shell or custom profile with its own hash; and an approval of exactly the list
// or the command the person was shown (a hash that is no longer current is refused). Thin over
// main/checks/; a verification goes through the supervisor (Supervisor.verifyChecks). Runs in the daemon.
import type { ChecksListing } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { loadChecks } from '../checks/load-checks.js';
import { agentCommandTrust, approveAgentCommand, approveChecks as recordChecksApproval, checksTrust, needsTrust, type AgentCommandTrust } from '../checks/trust.js';
import { readSessionFile } from '../state/session-file.js';
import { appendEntryAsync } from '../state/work-log.js';

export function listChecks(home: string, stateDir: string): Result<ChecksListing> {
  const session = readSessionFile(stateDir);
  if (!session.ok) return session;
  const loaded = loadChecks(stateDir);
  if (!loaded.ok) return loaded;
  const t = checksTrust(home, stateDir, loaded.value);
  return ok({
    checks: loaded.value.checks.map((c) => ({
      id: c.id,
      kind: c.kind,
      target: c.target,
      label: c.label,
      source: c.source,
      service: c.service,
      needsTrust: needsTrust(c),
      trusted: !needsTrust(c) || t.trusted,
    })),
    services: loaded.value.services.map((s) => ({ name: s.name, start: s.start, checkIds: s.checkIds, source: s.source })),
    unparsed: loaded.value.unparsed,
    trust: { hash: t.hash, trusted: t.trusted, changed: t.changed, approvedAt: t.approvedAt, items: t.items },
    lastVerification: session.value.lastVerification,
    agentCommand: agentCommandListing(agentCommandTrust(home, stateDir, session.value)),
  });
}

function agentCommandListing(a: AgentCommandTrust): ChecksListing['agentCommand'] {
  if (!a.needed) return null;
  const { profile, command, hash, trusted, changed, approvedAt, refused } = a;
  return { profile, command, where: `session.json (agent.command, the ${profile} profile's command line)`, hash, trusted, changed, approvedAt, refused };
}

/** Approves the current list when `hash` is its hash; a stale hash changes nothing. */
export async function approveChecks(home: string, stateDir: string, hash: string, at = new Date()): Promise<Result<{ hash: string; items: number }>> {
  const loaded = loadChecks(stateDir);
  if (!loaded.ok) return loaded;
  const t = checksTrust(home, stateDir, loaded.value);
  if (t.hash !== hash) return fail('conflict', `the checks changed since they were shown (the list is now ${t.hash}); show them again and approve what is there now`);
  if (t.items.length === 0) return ok({ hash, items: 0 });
  const res = await recordChecksApproval(home, stateDir, t, at);
  if (!res.ok) return res;
  await appendEntryAsync(stateDir, [`TRUST APPROVED - ${t.items.length} item${t.items.length === 1 ? '' : 's'} (${t.hash.slice(0, 19)}…)`], at);
  return ok({ hash, items: t.items.length });
}

/**
 * Approves the session's agent command when `hash` is its hash as session.json gives it now; a stale
 * hash, a profile that runs its own CLI, or a command no approval can make safe changes nothing.
 */
export async function approveAgent(home: string, stateDir: string, hash: string, at = new Date()): Promise<Result<{ hash: string; command: string | null }>> {
  const session = readSessionFile(stateDir);
  if (!session.ok) return session;
  const a = agentCommandTrust(home, stateDir, session.value);
  if (!a.needed) return fail('usage', `${stateDir}/session.json: the ${a.profile} profile runs its own program; there is no agent command to approve`);
  if (a.hash !== hash) return fail('conflict', `the agent command changed since it was shown (it is now \`${a.command ?? '(none)'}\`, ${a.hash}); show it again and approve what is there now`);
  if (a.refused !== null) return fail('usage', `${stateDir}/session.json: agent.command: ${a.refused}; not approved`);
  if (a.trusted) return ok({ hash, command: a.command });
  // The session read here is the one whose hash was compared: a change since is simply not approved.
  const res = await approveAgentCommand(home, stateDir, session.value, at);
  if (!res.ok) return res;
  await appendEntryAsync(stateDir, [`TRUST APPROVED - agent command \`${a.command ?? ''}\``], at);
  return ok({ hash, command: a.command });
}
