// The page a browser gets (main/web/browser-api-preload.ts): the build's comment naming the API's
// chunk becomes a modulepreload link; anything but a plain file of the page's assets folder stays
// an inert comment.
import { describe, expect, it } from 'vitest';
import { BROWSER_API_COMMENT, withBrowserApiPreload } from '../../../main/web/browser-api-preload.js';

const page = (comment: string): string => `<html><head><script type="module" src="./assets/index-a1.js"></script>\n${comment}\n</head><body></body></html>`;

describe("the browser's page", () => {
  it("turns the build's comment into a modulepreload link of that chunk", () => {
    const html = withBrowserApiPreload(page(BROWSER_API_COMMENT('./assets/api-B_x-9.js')));
    expect(html).toContain('<link rel="modulepreload" crossorigin href="./assets/api-B_x-9.js">');
    expect(html).not.toContain('mori:browser-api');
  });

  it('leaves a page without the comment as it is', () => {
    expect(withBrowserApiPreload(page(''))).toBe(page(''));
  });

  it('never makes a link of a name that leaves the assets folder or breaks out of the attribute', () => {
    for (const href of ['../secret.js', './assets/../../x.js', './assets/x.js" onload="alert(1)', 'https://elsewhere.example/x.js', './assets/sub/x.js']) {
      const html = withBrowserApiPreload(page(BROWSER_API_COMMENT(href)));
      expect(html, href).not.toContain('<link');
    }
  });
});
