// `mori report`'s text: what needs the person first, then each session's timeline, checks, files,
// usage and the agent's own account. Every line an agent could have written goes through visibleText
// (control characters shown as escapes, never sent to the terminal). Runs in the CLI process.
import type { AwayReport, AwaySession } from '../../common/away-report.js';
import { awayChecksLine, awayItemText, awayUsageText } from '../../common/away-words.js';
import { localStamp } from '../../common/time-words.js';
import { visibleLines, visibleText } from '../../common/visible-text.js';

/** Files named per session, at most: `mori changes S --since #N --stat` lists them all. */
const FILES_SHOWN = 10;

const SINCE_WORDS: Record<AwayReport['sinceFrom'], string> = { 'last-looked': 'since you last looked', given: 'since', default: 'in the last 8 hours (no earlier look)' };

function sessionLines(s: AwaySession): string[] {
  const out = [`${visibleText(s.name)} (${visibleText(s.agent)})${s.needs !== null ? ` — ${visibleText(s.needs)}` : ''}`];
  for (const i of s.timeline) out.push(`  ${localStamp(i.atMs)}  ${visibleText(awayItemText(i))}`);
  const checks = awayChecksLine(s);
  if (checks !== null) out.push(`  ${visibleText(checks)}`);
  if (s.changes !== null) {
    if ('problem' in s.changes) out.push(`  files: ${visibleText(s.changes.problem)}`);
    else {
      const files = s.changes.files;
      const more = files.length > FILES_SHOWN ? `, … ${files.length - FILES_SHOWN} more` : '';
      out.push(`  files changed since checkpoint #${s.changes.sinceSeq}: ${files.length === 0 ? 'none' : files.slice(0, FILES_SHOWN).map((f) => visibleText(f.path)).join(', ') + more} (mori changes ${visibleText(s.name)} --since ${s.changes.sinceSeq})`);
    }
  }
  out.push(`  ${visibleText(awayUsageText(s.usage))}`);
  if ('problem' in s.account) out.push(`  account: ${visibleText(s.account.problem)}`);
  else {
    const a = s.account;
    out.push(`  task now: ${a.task.length === 0 ? '(none written)' : a.task.map(visibleText).join(' / ')}`);
    if (a.lastWorkingState !== null) out.push(`  last working state: ${visibleText(a.lastWorkingState)}`);
    out.push(`  next steps: ${a.nextSteps.length === 0 ? '(none written)' : a.nextSteps.map(visibleText).join(' / ')}`);
    for (const l of a.logLines) out.push(`  log: ${visibleText(l)}`);
  }
  return out;
}

export function reportText(r: AwayReport): string {
  const since = r.sinceFrom === 'default' ? SINCE_WORDS.default : `${SINCE_WORDS[r.sinceFrom]} (${localStamp(r.sinceMs)})`;
  const head = [`While you were away, ${since}:`];
  if (r.needsYou.length > 0) head.push('Needs you now:', ...r.needsYou.map((n) => `  ${visibleText(n.session)}: ${visibleText(n.why)}`));
  else head.push('Nothing needs you now.');
  const body = r.sessions.flatMap((s) => ['', ...sessionLines(s)]);
  const quiet = r.quiet.length > 0 ? ['', `Nothing happened in: ${r.quiet.map(visibleText).join(', ')}`] : [];
  // A last guard over the whole text, as every command's output has.
  return visibleLines([...head, ...body, ...quiet].join('\n'));
}
