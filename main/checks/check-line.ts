// Reads one line of environment.md into check targets (DESIGN.md §3, §7): the explicit `kind: target`
// grammar of the `## Checks` section, and the seed's free form of `## Setup` and `## Running
// Services` (a labelled test command in backticks, host:port, "on PORT", URLs, `(pid N)`, `start:`).
// Pure: no I/O. Runs in any process that derives checks.
import { CHECK_KINDS, type CheckKind } from '../../common/checks.js';

/** A command check may run a whole test suite; a longer one says `(timeout 10m)` on its line. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** Loopback answers in milliseconds and a remote host well under a second; 5 s tolerates a network just back from sleep. */
export const DEFAULT_NETWORK_TIMEOUT_MS = 5_000;
/** file and pid checks are local system calls: effectively instant; the bound only guards a hung filesystem. */
export const DEFAULT_LOCAL_TIMEOUT_MS = 2_000;
/** No single check may hold a verification for more than an hour, whatever its line says. */
const MAX_TIMEOUT_MS = 3_600_000;

export function defaultTimeout(kind: CheckKind): number {
  if (kind === 'command') return DEFAULT_COMMAND_TIMEOUT_MS;
  if (kind === 'file' || kind === 'pid') return DEFAULT_LOCAL_TIMEOUT_MS;
  return DEFAULT_NETWORK_TIMEOUT_MS;
}

export interface Target {
  kind: CheckKind;
  target: string;
}

export type Parsed<T> = ({ ok: true } & T) | { ok: false; reason: string };

const TIMEOUT = /\(\s*timeout\s*:?\s*([^)]*)\)/i;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|secs?|seconds?|m|mins?|minutes?|h|hours?)?$/i;

/** `(timeout 120s)` anywhere in the line → its milliseconds and the line without it. */
export function extractTimeout(text: string): Parsed<{ timeoutMs: number | null; rest: string }> {
  const m = TIMEOUT.exec(text);
  if (!m) return { ok: true, timeoutMs: null, rest: text };
  const ms = parseDuration((m[1] ?? '').trim());
  if (ms === null) return { ok: false, reason: `"${m[0]}" is not a timeout; write it like (timeout 120s), (timeout 500ms) or (timeout 10m)` };
  return { ok: true, timeoutMs: Math.min(ms, MAX_TIMEOUT_MS), rest: (text.slice(0, m.index) + text.slice(m.index + m[0].length)).replace(/\s{2,}/g, ' ').trim() };
}

export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const factor = unit === 'ms' ? 1 : unit.startsWith('h') ? 3_600_000 : unit.startsWith('m') ? 60_000 : 1000;
  const ms = Math.round(n * factor);
  return ms > 0 ? ms : null;
}

const KIND_ALIASES: Record<string, CheckKind> = {
  cmd: 'command',
  run: 'command',
  test: 'command',
  port: 'tcp',
  url: 'http',
  https: 'http',
  process: 'pid',
  path: 'file',
  exists: 'file',
  host: 'dns',
  resolve: 'dns',
};

/** One line of `## Checks`: `kind: target (timeout Ns)`. */
export function parseExplicitLine(text: string): Parsed<Target & { timeoutMs: number | null }> {
  const t = extractTimeout(text.trim());
  if (!t.ok) return t;
  const m = /^\**([A-Za-z]+)\**\s*:\s*(.*)$/.exec(t.rest);
  if (!m || /^https?:\/\//i.test(t.rest)) {
    return { ok: false, reason: `expected "kind: target" with kind one of ${CHECK_KINDS.join(', ')}` };
  }
  const word = (m[1] ?? '').toLowerCase();
  const kind = (CHECK_KINDS as readonly string[]).includes(word) ? (word as CheckKind) : KIND_ALIASES[word];
  if (!kind) return { ok: false, reason: `"${m[1]}" is not a check kind; use one of ${CHECK_KINDS.join(', ')}` };
  const target = parseTarget(kind, (m[2] ?? '').trim());
  if (!target.ok) return target;
  return { ok: true, kind, target: target.target, timeoutMs: t.timeoutMs };
}

/** Validates and normalises the target of an explicit check of a given kind. */
export function parseTarget(kind: CheckKind, raw: string): Parsed<{ target: string }> {
  const code = /`([^`]+)`/.exec(raw);
  const plain = (code ? (code[1] ?? '') : raw).trim();
  if (plain === '') return { ok: false, reason: `${kind}: the target is empty` };
  switch (kind) {
    case 'command':
      return { ok: true, target: plain };
    case 'tcp': {
      const addr = parseAddress(plain);
      return addr ? { ok: true, target: addr } : { ok: false, reason: `tcp: "${plain}" is not host:port or a port number (1-65535)` };
    }
    case 'http': {
      const url = parseUrl(plain);
      return url ? { ok: true, target: url } : { ok: false, reason: `http: "${plain}" is not an http:// or https:// URL` };
    }
    case 'pid':
      return /^\d+$/.test(plain) && Number(plain) > 0 ? { ok: true, target: String(Number(plain)) } : { ok: false, reason: `pid: "${plain}" is not a process id` };
    case 'file':
      return { ok: true, target: plain };
    case 'dns':
      return HOSTNAME.test(plain) ? { ok: true, target: plain.toLowerCase() } : { ok: false, reason: `dns: "${plain}" is not a host name` };
  }
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/;

/** `localhost:5432`, `10.0.0.2:80`, `[::1]:8080`, `db.internal:5432`, or a bare port → `localhost:PORT`. */
export function parseAddress(text: string): string | null {
  if (/^\d+$/.test(text)) return validPort(text) ? `localhost:${Number(text)}` : null;
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d+)$/.exec(text);
  if (!m || !validPort(m[2] ?? '')) return null;
  const host = m[1] ?? '';
  if (!host.startsWith('[') && !HOSTNAME.test(host)) return null;
  return `${host.toLowerCase()}:${Number(m[2])}`;
}

function validPort(p: string): boolean {
  const n = Number(p);
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

function parseUrl(text: string): string | null {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? text : null;
  } catch {
    return null;
  }
}

export interface FreeLine {
  /** Text before the first `: ` (`Test command`, `API server`), or null. */
  label: string | null;
  targets: Target[];
  /** The `start:` command of a service line. */
  start: string | null;
  timeoutMs: number | null;
  /** Why the line gave no check (or what in it was ignored), for the "not understood" list. */
  notes: string[];
}

/** Labels whose backticked command is run as a command check. */
const COMMAND_LABEL = /\b(tests?|lint(?:er|ing)?|type ?checks?|typecheck(?:ing)?|checks?|verify|verification|build)\b/i;
const START = /\bstart(?: command)?\s*:\s*/i;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const PID = /\bpid\b\s*[:=#]?\s*(\d+)\b/i;
const HOST_PORT = /(?<![\w./:@-])(localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:]+\]|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+):(\d{1,5})\b(?![.:]\d)/g;
const ON_PORT = /\b(?:on|port)\s+(?:port\s+)?(\d{2,5})\b/gi;

/** One free-form line of `## Setup` or `## Running Services`, in the seed's style. */
export function parseFreeLine(input: string): FreeLine {
  const notes: string[] = [];
  const t = extractTimeout(input.trim());
  let text = t.ok ? t.rest : input.trim();
  if (!t.ok) notes.push(t.reason);
  const timeoutMs = t.ok ? t.timeoutMs : null;

  // `start: \`cmd\``: the service's restart command; everything after it belongs to the command.
  let start: string | null = null;
  const s = START.exec(text);
  if (s) {
    const after = text.slice(s.index + s[0].length);
    const code = /^`([^`]+)`/.exec(after);
    if (code && (code[1] ?? '').trim() !== '') {
      start = (code[1] ?? '').trim();
      text = (text.slice(0, s.index) + after.slice(code[0].length)).trim();
    } else {
      notes.push('start: needs its command in backticks, like start: `npm run dev`');
    }
  }

  const labelMatch = /^\**([^:`*]{1,60}?)\**\s*:\s+(.*)$/.exec(text);
  const label = labelMatch ? (labelMatch[1] ?? '').trim() : null;
  let rest = labelMatch ? (labelMatch[2] ?? '') : text;

  const codeSpans = [...rest.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').trim());
  rest = rest.replace(/`[^`]*`/g, ' ');

  const targets: Target[] = [];
  const add = (kind: Target['kind'], target: string) => {
    if (!targets.some((x) => x.kind === kind && x.target === target)) targets.push({ kind, target });
  };

  const first = codeSpans[0];
  if (first !== undefined) {
    if (label !== null && COMMAND_LABEL.test(label)) add('command', first);
    else notes.push(`\`${first}\` is not labelled as a test, lint or build command, so it is not run; list it under ## Checks as command: \`…\` to run it`);
  }
  for (const m of rest.matchAll(URL_PATTERN)) {
    const url = m[0].replace(/[.,;:)\]]+$/, '');
    const parsed = parseUrl(url);
    if (parsed) add('http', parsed);
  }
  rest = rest.replace(URL_PATTERN, ' ');
  const pid = PID.exec(rest);
  if (pid) add('pid', String(Number(pid[1])));
  for (const m of rest.matchAll(HOST_PORT)) {
    const addr = parseAddress(`${m[1]}:${m[2]}`);
    if (addr) add('tcp', addr);
  }
  for (const m of rest.matchAll(ON_PORT)) {
    const addr = parseAddress(m[1] ?? '');
    if (addr) add('tcp', addr);
  }
  return { label, targets, start, timeoutMs, notes };
}
