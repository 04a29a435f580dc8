// Derives the checks of a session (DESIGN.md §3, §7) from environment.md's `## Setup`, `## Running
// Services` and `## Checks` lines and from "Files touched" in session_state.md. Every line either
// gives checks or is listed in `unparsed` with the reason, never silently dropped. Pure.
import type { CheckKind, CheckSource, CheckSpec, DerivedChecks, ServiceSpec, UnparsedLine } from '../../common/checks.js';
import type { EnvironmentFile, EnvironmentLine } from '../state/environment-file.js';
import { defaultTimeout, parseExplicitLine, parseFreeLine } from './check-line.js';
import { ENVIRONMENT, SESSION_STATE } from '../../common/state-files.js';

export interface TouchedFile {
  path: string;
  /** 1-based line in session_state.md. */
  line: number;
}

export function checkId(kind: CheckKind, target: string): string {
  return `${kind}:${target}`;
}

/** `API server` → `api-server`: names the service's log file, so only safe characters. */
export function serviceSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug === '' ? 'service' : slug;
}

export function deriveChecks(env: EnvironmentFile, touched: readonly TouchedFile[] = []): DerivedChecks {
  const checks: CheckSpec[] = [];
  const services: ServiceSpec[] = [];
  const unparsed: UnparsedLine[] = [];
  const src = (l: EnvironmentLine): CheckSource => ({ file: ENVIRONMENT, line: l.line });
  const byId = new Map<string, CheckSpec>();
  const slugs = new Set<string>();

  /** Adds a check, or merges it into an equal one already derived; returns the id either way. */
  const add = (spec: Omit<CheckSpec, 'id'>): string => {
    const id = checkId(spec.kind, spec.target);
    const existing = byId.get(id);
    if (existing) {
      existing.timeoutMs = Math.max(existing.timeoutMs, spec.timeoutMs);
      existing.service ??= spec.service;
      existing.label ??= spec.label;
    } else {
      const check = { id, ...spec };
      checks.push(check);
      byId.set(id, check);
    }
    return id;
  };

  const freeLine = (l: EnvironmentLine, isService: boolean) => {
    const parsed = parseFreeLine(l.text);
    const serviceName = parsed.start !== null || (isService && parsed.targets.length > 0) ? (parsed.label ?? parsed.targets[0]?.target ?? 'service') : null;
    const ids = parsed.targets.map((t) =>
      add({
        kind: t.kind,
        target: t.target,
        label: parsed.label,
        timeoutMs: parsed.timeoutMs ?? defaultTimeout(t.kind),
        source: src(l),
        service: serviceName,
      }),
    );
    if (serviceName !== null) {
      let slug = serviceSlug(serviceName);
      for (let n = 2; slugs.has(slug); n++) slug = `${serviceSlug(serviceName)}-${n}`;
      slugs.add(slug);
      services.push({ name: serviceName, slug, start: parsed.start, checkIds: ids, source: src(l), text: l.text });
    }
    if (parsed.targets.length === 0) {
      const reason = parsed.notes.length > 0 ? parsed.notes.join('; ') : 'no test command, address, URL or pid in this line';
      unparsed.push({ source: src(l), text: l.text, reason, severity: 'no-check' });
    } else if (parsed.notes.length > 0) {
      unparsed.push({ source: src(l), text: l.text, reason: `partly understood: ${parsed.notes.join('; ')}`, severity: 'no-check' });
    }
  };

  for (const l of env.setup) freeLine(l, false);
  for (const l of env.services) freeLine(l, true);
  for (const l of env.checks) {
    const parsed = parseExplicitLine(l.text);
    if (!parsed.ok) {
      // A line in the free form (a bare URL, "host:port", "Test command: `npm test`") under ## Checks
      // is still understood; commands from it need trust like any other.
      const free = parseFreeLine(l.text);
      if (free.targets.length > 0 && free.start === null) {
        freeLine(l, false);
        continue;
      }
      unparsed.push({ source: src(l), text: l.text, reason: parsed.reason, severity: 'malformed' });
      continue;
    }
    add({ kind: parsed.kind, target: parsed.target, label: null, timeoutMs: parsed.timeoutMs ?? defaultTimeout(parsed.kind), source: src(l), service: null });
  }
  for (const f of touched) {
    add({ kind: 'file', target: f.path, label: null, timeoutMs: defaultTimeout('file'), source: { file: SESSION_STATE, line: f.line }, service: null });
  }
  return { checks, services, unparsed };
}
