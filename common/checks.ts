// The verification model (DESIGN.md §7): what a check is, where it came from, what a run of it found,
// and the pure summaries the CLI, the work log, the tray and the resume prompt show. Pure TypeScript,
// shared by main, preload and renderer.
import type { CheckResultRecord } from './session.js';

export const CHECK_KINDS = ['command', 'tcp', 'http', 'pid', 'file', 'dns'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export type CheckStatus = CheckResultRecord['status'];

/** Where a check or a line came from: `environment.md:7`. */
export interface CheckSource {
  file: string;
  /** 1-based line number. */
  line: number;
}

export interface CheckSpec {
  /** Stable within one derivation: `kind:target`. */
  id: string;
  kind: CheckKind;
  /** command line, `host:port`, URL, pid number, path, or hostname. */
  target: string;
  /** What the line called it (`Test command`, `API server`), or null. */
  label: string | null;
  timeoutMs: number;
  source: CheckSource;
  /** Name of the service this check belongs to, when it came from a service line. */
  service: string | null;
}

export interface ServiceSpec {
  /** As written before the first colon: `API server`. */
  name: string;
  /** File-name-safe form: `api-server` (names `transcript/service-api-server.log`). */
  slug: string;
  /** The `start:` command, or null when the line has none. */
  start: string | null;
  /** The ids of the checks derived from this service's line. */
  checkIds: string[];
  source: CheckSource;
  /** The service's line as parsed, so a later edit can find it again before writing a pid back. */
  text: string;
}

/** A line that gave no check, with why: listed, never silently dropped. */
export interface UnparsedLine {
  source: CheckSource;
  text: string;
  reason: string;
  /** `malformed` for a `## Checks` line that breaks the grammar; `no-check` for free-form facts. */
  severity: 'malformed' | 'no-check';
}

export interface DerivedChecks {
  checks: CheckSpec[];
  services: ServiceSpec[];
  unparsed: UnparsedLine[];
}

export type CheckResult = CheckResultRecord;

export interface VerificationSummary {
  total: number;
  passed: number;
  failed: number;
  timedOut: number;
  untrusted: number;
  skipped: number;
  /** `checks 3/4 passed (Test command failed)`: the phrase for log entries and notifications. */
  text: string;
}

export function sourceText(s: CheckSource): string {
  return `${s.file}:${s.line}`;
}

/** A short human name for a check: its label, or `kind target`. */
export function checkName(c: { label?: string | null | undefined; kind: string; target: string }): string {
  return c.label ? c.label : `${c.kind} ${c.target}`;
}

export function summarizeResults(results: readonly CheckResult[]): VerificationSummary {
  const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
  const summary = {
    total: results.length,
    passed: count('pass'),
    failed: count('fail'),
    timedOut: count('timeout'),
    untrusted: count('untrusted'),
    skipped: count('skipped'),
  };
  const parts: string[] = [];
  const names = (s: CheckStatus) => [...new Set(results.filter((r) => r.status === s).map((r) => checkName(r)))].join(', ');
  if (summary.failed > 0) parts.push(`${names('fail')} failed`);
  if (summary.timedOut > 0) parts.push(`${names('timeout')} timed out`);
  if (summary.untrusted > 0) parts.push(`${summary.untrusted} not run: needs trust`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  const text =
    summary.total === 0
      ? 'no checks to run (environment.md names none)'
      : `checks ${summary.passed}/${summary.total} passed${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
  return { ...summary, text };
}

export function allPassed(results: readonly CheckResult[]): boolean {
  return results.every((r) => r.status === 'pass');
}

/**
 * Whether a host is this machine by its literal text alone: `localhost`, 127.0.0.0/8 in dotted
 * form, `::1`. Nothing is resolved: a name that only resolves to loopback (`x.localhost`, a DNS
 * record) is not loopback, since looking it up already sends the name off the machine. Network
 * checks to any other host can carry data out, so they need trust like commands.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}

/** How a trust list names its items: `command`, `addresses`, `commands and addresses`, ... */
export function trustListNoun(items: readonly { kind: string }[], plural = items.length !== 1): string {
  const addresses = items.some((i) => i.kind === 'http' || i.kind === 'tcp' || i.kind === 'dns');
  const commands = items.some((i) => i.kind === 'command' || i.kind === 'start');
  if (!plural) return addresses ? 'address' : 'command';
  return commands && addresses ? 'commands and addresses' : addresses ? 'addresses' : 'commands';
}

/**
 * Whether a verification passed: no check failed or timed out. Checks that were not run (untrusted,
 * skipped) do not fail it; they are reported on their own. The one definition every caller uses.
 */
export function verificationPassed(summary: Pick<VerificationSummary, 'failed' | 'timedOut'>): boolean {
  return summary.failed === 0 && summary.timedOut === 0;
}
