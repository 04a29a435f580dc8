// Links the person clicks in the window (DESIGN.md §13): in a terminal (xterm's web-links addon) or
// in the page. In the app they go to the main process (the preload's `openLink`), which opens them
// in the default browser; in a browser page they open in a new tab without access to this one.
// Either way only http and https links open; anything else is refused and said in the console.
// Runs in the renderer.
import type { MoriApi } from '../../common/mori-api.js';

/** Whether a URL may be opened: an absolute http or https one. */
export function openable(url: string): boolean {
  try {
    const p = new URL(url).protocol;
    return p === 'http:' || p === 'https:';
  } catch {
    return false;
  }
}

export function openLink(api: Pick<MoriApi, 'openLink'>, url: string): void {
  if (api.openLink) {
    void api.openLink(url).then((r) => {
      if (!r.ok) console.warn(`mori: the link was not opened: ${r.message}`);
    });
    return;
  }
  if (!openable(url)) return console.warn(`mori: only http and https links open, not ${JSON.stringify(url.slice(0, 200))}`);
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** The URL of the link a click landed on, when it leads out of this document (else null: the page handles it). */
export function linkOf(target: EventTarget | null): string | null {
  const a = target instanceof Element ? target.closest('a[href]') : null;
  if (!(a instanceof HTMLAnchorElement)) return null;
  const raw = a.getAttribute('href') ?? '';
  if (raw.startsWith('#')) return null;
  return a.href;
}
