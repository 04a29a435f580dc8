// The page a browser is opened on by `mori ui` (DESIGN.md §11): a file in MORI_HOME, readable by this
// user only (0600), that redirects to the link with its launch token. The browser's command line then
// names only the file, so the token is in no process's argv (/proc/*/cmdline is readable by anyone).
// The file is removed once the token is spent and when `mori ui` exits. Runs in the `mori ui` process.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureHome } from '../state/registry.js';

export interface LaunchPage {
  /** The file's path: what the browser is given. */
  file: string;
  /** A file:// URL of it. */
  url: string;
  remove(): void;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function writeLaunchPage(home: string, target: string): LaunchPage {
  ensureHome(home);
  const file = path.join(home, `ui-${process.pid}.html`);
  const href = escapeHtml(target);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}"><title>Mori</title></head>
<body><p><a href="${href}">Open the Mori window</a></p></body></html>
`;
  // A leftover of an earlier `mori ui` with this pid goes; 'wx' then creates it afresh (never follows
  // a link planted in its place) with mode 0600.
  rmSync(file, { force: true });
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, html);
  } finally {
    closeSync(fd);
  }
  return { file, url: pathToFileURL(file).href, remove: () => rmSync(file, { force: true }) };
}
