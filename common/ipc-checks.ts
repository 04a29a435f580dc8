// What `checks.list` answers (DESIGN.md §7, §12): each check with where it came from and whether it
// may run, the services, the lines not understood, the list's approval by its hash and the agent's
// command line with its own. Part of the supervisor's request/response contract (ipc.ts). Pure TypeScript.
import * as z from 'zod/mini';
import './zod-english.js';
import { CheckResultRecord } from './session.js';

const Source = z.object({ file: z.string(), line: z.int() });

/** One check as `checks.list` shows it: what, where it came from, and whether it may run. */
export const CheckRow = z.object({
  id: z.string(),
  kind: z.string(),
  target: z.string(),
  label: z.nullable(z.string()),
  source: Source,
  service: z.nullable(z.string()),
  /** Running it needs the person's approval (a command, a start: command, an http check off this machine). */
  needsTrust: z.boolean(),
  /** It runs: it needs no approval, or the list it belongs to is approved. */
  trusted: z.boolean(),
});
export type CheckRow = z.infer<typeof CheckRow>;

/** The agent's command line as `checks.list` shows it: what `agent.trust` approves, by its hash. */
const AgentCommandTrust = z.object({
  profile: z.string(),
  /** Exactly what runs as the agent; null: the shell profile's login shell. */
  command: z.nullable(z.string()),
  /** Where it came from, in words: `session.json (agent.command)`. */
  where: z.string(),
  hash: z.string(),
  trusted: z.boolean(),
  /** Approved once, but the command line changed since. */
  changed: z.boolean(),
  approvedAt: z.nullable(z.string()),
  /** Why no approval can make it run (a placeholder a shell would read as code), else null. */
  refused: z.nullable(z.string()),
});

/** Built on first use, as the events are: only `checks.list` reads it. */
export const ChecksListing = z.lazy(() => z.object({
  checks: z.array(CheckRow),
  services: z.array(z.object({ name: z.string(), start: z.nullable(z.string()), checkIds: z.array(z.string()), source: Source })),
  unparsed: z.array(z.object({ source: Source, text: z.string(), reason: z.string(), severity: z.enum(['malformed', 'no-check']) })),
  trust: z.object({
    /** The hash of exactly this list: what `checks.trust` approves. */
    hash: z.string(),
    trusted: z.boolean(),
    /** An approval exists, for another list. */
    changed: z.boolean(),
    approvedAt: z.nullable(z.string()),
    items: z.array(z.object({ kind: z.enum(['command', 'start', 'http', 'tcp', 'dns']), value: z.string(), where: z.string() })),
  }),
  lastVerification: z.nullable(z.object({ at: z.string(), results: z.array(CheckResultRecord) })),
  /** The command line session.json gives the shell or custom profile's agent, and its approval; null for a profile that runs its own CLI. */
  agentCommand: z._default(z.nullable(AgentCommandTrust), null),
}));
export type ChecksListing = z.infer<typeof ChecksListing>;
