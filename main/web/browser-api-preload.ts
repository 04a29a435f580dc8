// The browser's API chunk, fetched early (DESIGN.md §13): the built page names the chunk of
// renderer/api.ts in a comment (vite.renderer.config.ts); the web host serves the page with that
// comment turned into a modulepreload link, so a browser fetches and compiles the chunk while the
// entry loads instead of after it ran. The app's window (file://) reads the page as built: the
// comment is inert there and the chunk, which the app never uses, is never loaded. Pure TypeScript.

/** The comment the build leaves in index.html, naming the chunk by its path relative to the page. */
export const BROWSER_API_COMMENT = (href: string): string => `<!-- mori:browser-api ${href} -->`;

/** Only a chunk of the page's own assets folder, by a plain file name: the page is ours, but the pattern says what it may hold. */
const COMMENT = /<!-- mori:browser-api (\.\/assets\/[\w.-]+\.js) -->/;

/** The page as a browser gets it: the comment, if there, as a modulepreload link. */
export function withBrowserApiPreload(html: string): string {
  return html.replace(COMMENT, (_all, href: string) => `<link rel="modulepreload" crossorigin href="${href}">`);
}
