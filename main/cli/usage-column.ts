// `mori ls`'s usage column (DESIGN.md §5 "Usage"): today's tokens and the context's share of the
// model's window, from the figures the daemon's listing carries. Loads no schema (`mori ls` cold
// start). Runs in the CLI process.
import { compactTokens, percent, type ListedUsage } from '../../common/usage-figures.js';

/**
 * `12.3k today · ctx 23 %` (`≥12.3k` while the record is still being read; `ctx 85 % (over 80 %)`
 * past the share the person set); empty when the daemon read nothing for the session.
 */
export const listedUsageText = (u: ListedUsage | null | undefined): string =>
  u ? `${u.partial === true ? '≥' : ''}${compactTokens(u.todayTokens)} today · ctx ${percent(u.contextShare)}${u.over === undefined ? '' : ` (over ${percent(u.over)})`}` : '';
