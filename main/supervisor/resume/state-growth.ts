// When session_state.md has grown too big to be a state (DESIGN.md §5, "Resume policy"): past the
// size the person set, one notice naming the sections that grew most, given again only once the file
// came back under it. Pure; runs in the daemon's process (state-growth-watch.ts gives it the file).

export interface SectionSize {
  title: string;
  bytes: number;
}

/** How many sections the notice names: the few worth trimming, not a table of contents. */
const SECTIONS_NAMED = 3;

/**
 * Each `## ` section's size in bytes (its heading and body), biggest first. The file starts from a
 * template of a line or two per section, so a section's size now is what it grew by.
 */
export function sectionSizes(text: string): SectionSize[] {
  const out: SectionSize[] = [];
  let current: SectionSize | null = null;
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : /^ {0,3}##[ \t]+(.*?)[ \t#]*$/.exec(line);
    if (h) {
      current = { title: h[1] ?? '', bytes: 0 };
      out.push(current);
    }
    if (current) current.bytes += Buffer.byteLength(line) + 1;
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

export type GrowthStep = { kind: 'notice' } | { kind: 'rearm' } | { kind: 'none' };

/** A notice when past the limit and none given yet; re-armed once back under it. */
export function growthStep(bytes: number, limitBytes: number, noticed: boolean): GrowthStep {
  if (bytes > limitBytes) return noticed ? { kind: 'none' } : { kind: 'notice' };
  return noticed ? { kind: 'rearm' } : { kind: 'none' };
}

/** The work-log line of the notice. */
export function growthWords(bytes: number, limitBytes: number, sections: readonly SectionSize[]): string {
  const named = sections.slice(0, SECTIONS_NAMED).map((s) => `${s.title} (${formatBytes(s.bytes)})`);
  const most = named.length > 0 ? `; grew most: ${named.join(', ')}` : '';
  return `SESSION NOTE - session_state.md is ${formatBytes(bytes)}, past the ${formatBytes(limitBytes)} set (settings.json resume.stateFileNoticeBytes)${most}. Keep it to where things stand: move what is done to work_log.md`;
}

/** 900 → `900 B`, 18500 → `18 KiB`. */
function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
