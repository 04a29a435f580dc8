// Trust (DESIGN.md §7): command checks, service `start:` commands and network checks (tcp, http, dns)
// to any host but literal loopback come from files an agent or a cloned repository may have written,
// so they run only when the person approved that exact list: a connection or a lookup can carry data
// off the machine as surely as a command can. So does the command line of the shell and custom agent profiles,
// which session.json holds. Each list is hashed (sha256); the approved hash lives in the Mori home
// (trust-store.ts), keyed by the state dir. Any change to a list changes its hash and needs approval
// again. Any Node process.
import { createHash } from 'node:crypto';
import { isLoopbackHost, type CheckSpec, type DerivedChecks } from '../../common/checks.js';
import { fail, ok, type Result } from '../../common/result.js';
import type { SessionRecord } from '../../common/session.js';
import { checkTemplatePlaceholders } from '../agents/command-template.js';
import { PROFILES } from '../agents/profiles.js';
import { findApproval, recordApproval, type Approval } from './trust-store.js';

/** Versioned so a future change of what is hashed cannot collide with an old approval. */
const HASH_DOMAIN = 'mori-trust-v1';
const AGENT_COMMAND_DOMAIN = 'mori-agent-command-v1';

export interface TrustItem {
  kind: 'command' | 'start' | 'http' | 'tcp' | 'dns';
  /** The command line, URL, `host:port` or host name, exactly as it will be run or contacted. */
  value: string;
  /** Where it came from: `environment.md:7 (Test command)`. */
  where: string;
}

export interface TrustState {
  items: TrustItem[];
  hash: string;
  /** No items need trust, or the approved hash matches this list. */
  trusted: boolean;
  /** An approval exists but for a different list. */
  changed: boolean;
  approvedAt: string | null;
  /** Why nothing could be read as approved (the trust store is unreadable), else null. */
  problem: string | null;
}

/** The host a network check contacts, or null when its target names none that can be read. */
export function checkHost(c: Pick<CheckSpec, 'kind' | 'target'>): string | null {
  switch (c.kind) {
    case 'http':
      try {
        return new URL(c.target).hostname;
      } catch {
        return null;
      }
    case 'tcp': {
      const colon = c.target.lastIndexOf(':');
      return colon > 0 ? c.target.slice(0, colon) : null;
    }
    case 'dns':
      return c.target;
    default:
      return null;
  }
}

/** Whether running this check needs the person's approval: commands, and network checks off loopback. */
export function needsTrust(c: Pick<CheckSpec, 'kind' | 'target'>): boolean {
  switch (c.kind) {
    case 'command':
      return true;
    case 'http':
    case 'tcp':
    case 'dns': {
      const host = checkHost(c);
      return host === null || !isLoopbackHost(host);
    }
    case 'pid':
    case 'file':
      return false;
  }
}

export function trustItems(derived: Pick<DerivedChecks, 'checks' | 'services'>): TrustItem[] {
  const items: TrustItem[] = [];
  for (const c of derived.checks) {
    if (!needsTrust(c) || c.kind === 'pid' || c.kind === 'file') continue;
    items.push({ kind: c.kind, value: c.target, where: `${c.source.file}:${c.source.line}${c.label ? ` (${c.label})` : ''}` });
  }
  for (const s of derived.services) {
    if (s.start !== null) items.push({ kind: 'start', value: s.start, where: `${s.source.file}:${s.source.line} (${s.name})` });
  }
  return items;
}

/** The hash of what would run: kinds and values, sorted and de-duplicated (order and sources do not matter). */
export function trustHash(items: readonly TrustItem[]): string {
  const keys = [...new Set(items.map((i) => `${i.kind}\u0000${i.value}`))].sort();
  const h = createHash('sha256').update(HASH_DOMAIN);
  for (const k of keys) h.update('\u0001').update(k);
  return `sha256:${h.digest('hex')}`;
}

export function trustState(derived: Pick<DerivedChecks, 'checks' | 'services'>, approval: Pick<Approval, 'hash' | 'approvedAt'> | null, problem: string | null = null): TrustState {
  const items = trustItems(derived);
  const hash = trustHash(items);
  const approved = approval?.hash ?? null;
  return {
    items,
    hash,
    trusted: items.length === 0 || approved === hash,
    changed: approved !== null && approved !== hash,
    approvedAt: approval?.approvedAt ?? null,
    problem,
  };
}

/** The trust of a state dir's check list, read from the Mori home's approvals. */
export function checksTrust(home: string, stateDir: string, derived: Pick<DerivedChecks, 'checks' | 'services'>): TrustState {
  const approval = findApproval(home, stateDir, 'checks');
  return approval.ok ? trustState(derived, approval.value) : trustState(derived, null, approval.message);
}

export function approveChecks(home: string, stateDir: string, t: Pick<TrustState, 'hash'>, at = new Date()): Promise<Result<Approval>> {
  return recordApproval(home, stateDir, 'checks', t.hash, at);
}

// ------------------------------------------------------------------ the agent command

/** Profiles that take a command (shell, custom) run a command line from session.json; the others run their own CLI. */
export function agentCommandNeedsTrust(agent: Pick<SessionRecord['agent'], 'profile'>): boolean {
  return PROFILES[agent.profile].takesCommand === true;
}

export function agentCommandHash(agent: Pick<SessionRecord['agent'], 'profile' | 'command'>): string {
  const h = createHash('sha256').update(AGENT_COMMAND_DOMAIN);
  h.update('\u0001').update(agent.profile).update('\u0001').update(agent.command ?? '\u0000none');
  return `sha256:${h.digest('hex')}`;
}

export interface AgentCommandTrust {
  /** False for profiles that run their own CLI: nothing to approve. */
  needed: boolean;
  profile: SessionRecord['agent']['profile'];
  command: string | null;
  hash: string;
  trusted: boolean;
  /** Approved once, but the command line has changed since. */
  changed: boolean;
  approvedAt: string | null;
  problem: string | null;
  /** Why this command can never be approved (a placeholder a shell would read as code), else null. */
  refused: string | null;
}

/** Why an agent command may not run whoever approves it (checkTemplatePlaceholders), else null. */
export function agentCommandRefusal(agent: Pick<SessionRecord['agent'], 'profile' | 'command'>): string | null {
  if (!agentCommandNeedsTrust(agent) || agent.command === undefined) return null;
  const checked = checkTemplatePlaceholders(agent.command);
  return checked.ok ? null : checked.message;
}

export function agentCommandTrust(home: string, stateDir: string, session: Pick<SessionRecord, 'agent'>): AgentCommandTrust {
  const base = { profile: session.agent.profile, command: session.agent.command ?? null, hash: agentCommandHash(session.agent), refused: agentCommandRefusal(session.agent) };
  if (!agentCommandNeedsTrust(session.agent)) return { ...base, needed: false, trusted: true, changed: false, approvedAt: null, problem: null };
  const approval = findApproval(home, stateDir, 'agent-command');
  const a = approval.ok ? approval.value : null;
  return {
    ...base,
    needed: true,
    trusted: base.refused === null && a !== null && a.hash === base.hash,
    changed: a !== null && a.hash !== base.hash,
    approvedAt: a?.approvedAt ?? null,
    problem: approval.ok ? null : approval.message,
  };
}

export async function approveAgentCommand(home: string, stateDir: string, session: Pick<SessionRecord, 'agent'>, at = new Date()): Promise<Result<Approval>> {
  const refused = agentCommandRefusal(session.agent);
  if (refused !== null) return fail('usage', `${stateDir}/session.json: agent.command: ${refused}; not approved`);
  return recordApproval(home, stateDir, 'agent-command', agentCommandHash(session.agent), at);
}

/** ok when the agent command may run; else an `untrusted` failure saying why and how to approve it. */
export function requireAgentCommandTrust(home: string, stateDir: string, session: Pick<SessionRecord, 'agent' | 'name'>): Result<void> {
  const t = agentCommandTrust(home, stateDir, session);
  if (t.refused !== null) return fail('usage', `${stateDir}/session.json: agent.command: ${t.refused}; nothing was started`);
  if (t.trusted) return ok(undefined);
  const what = `the ${t.profile} agent command \`${t.command ?? '(none)'}\` in ${stateDir}/session.json`;
  const why = t.problem !== null ? `cannot be checked against the approvals (${t.problem})` : t.changed ? 'changed since it was approved' : 'was never approved';
  return fail('untrusted', `${what} ${why}; nothing was started. Approve it with \`mori trust ${session.name}\``);
}
