// Trust (DESIGN.md §7): command checks, service `start:` commands and http checks to non-loopback
// hosts come from files an agent or a cloned repository may have written, so they run only when the
// person approved that exact list. The list is hashed (sha256) and the hash kept in session.json;
// any change to the list changes the hash and needs approval again. Any Node process.
import { createHash } from 'node:crypto';
import { isLoopbackHost, type CheckSpec, type DerivedChecks } from '../../common/checks.js';
import type { SessionFile } from '../../common/session.js';

/** Versioned so a future change of what is hashed cannot collide with an old approval. */
const HASH_DOMAIN = 'mori-trust-v1';

export interface TrustItem {
  kind: 'command' | 'start' | 'http';
  /** The command line or URL, exactly as it will be run or requested. */
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
}

/** Whether running this check needs the person's approval. */
export function needsTrust(c: Pick<CheckSpec, 'kind' | 'target'>): boolean {
  if (c.kind === 'command') return true;
  if (c.kind === 'http') {
    try {
      return !isLoopbackHost(new URL(c.target).hostname);
    } catch {
      return true;
    }
  }
  return false;
}

export function trustItems(derived: Pick<DerivedChecks, 'checks' | 'services'>): TrustItem[] {
  const items: TrustItem[] = [];
  for (const c of derived.checks) {
    if (!needsTrust(c)) continue;
    items.push({ kind: c.kind === 'command' ? 'command' : 'http', value: c.target, where: `${c.source.file}:${c.source.line}${c.label ? ` (${c.label})` : ''}` });
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

export function trustState(derived: Pick<DerivedChecks, 'checks' | 'services'>, session: Pick<SessionFile, 'trust'>): TrustState {
  const items = trustItems(derived);
  const hash = trustHash(items);
  const approved = session.trust?.approvedHash ?? null;
  return {
    items,
    hash,
    trusted: items.length === 0 || approved === hash,
    changed: approved !== null && approved !== hash,
    approvedAt: session.trust?.approvedAt ?? null,
  };
}
