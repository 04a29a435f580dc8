// What the web host serves over HTTP (DESIGN.md §2, §11): the built renderer from out/renderer/, or a
// placeholder page while there is none, each with a strict Content-Security-Policy. Paths are
// confined to the renderer's folder. Runs in the web host.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { withBrowserApiPreload } from './browser-api-preload.js';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  // The window's web app manifest (renderer/public/): the type a browser wants before it offers "Add to home screen".
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Only this origin's own scripts, styles, images and WebSocket; no framing, no plugins, no forms. */
export function contentSecurityPolicy(wsOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Inline styles: xterm's DOM renderer writes its cell sizes and colours into <style> elements it
    // creates. Styles cannot run code; scripts stay 'self' only.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${wsOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(wsOrigin: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(wsOrigin),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mori</title></head>
<body><main><h1>Mori</h1>
<p>The web host runs and its control API answers on <code>/api</code> (WebSocket), but the window's
interface is not built here yet: run <code>npm run build:app</code>, then reload.</p></main></body></html>
`;

/** Serves `urlPath` from `root` (index.html for `/` and for paths without an extension), or the placeholder. */
export function serveStatic(root: string | null, urlPath: string, res: ServerResponse, headers: Record<string, string>): void {
  const send = (status: number, type: string, body: string | Buffer): void => {
    res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (root === null) {
    if (urlPath === '/' || urlPath === '/index.html') return send(200, TYPES['.html'] as string, PLACEHOLDER_HTML);
    return send(404, 'text/plain; charset=utf-8', 'not found\n');
  }
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return send(400, 'text/plain; charset=utf-8', 'bad path\n');
  }
  if (rel === '/' || path.extname(rel) === '') rel = '/index.html';
  const file = path.resolve(root, '.' + rel);
  try {
    const real = realpathSync(file);
    const inside = path.relative(root, real);
    if (inside.startsWith('..') || path.isAbsolute(inside) || !statSync(real).isFile()) throw new Error('outside');
    const body = readFileSync(real);
    // The page a browser gets fetches the API's chunk alongside the entry (browser-api-preload.ts).
    if (rel === '/index.html') return send(200, TYPES['.html'] as string, withBrowserApiPreload(body.toString('utf8')));
    return send(200, TYPES[path.extname(real)] ?? 'application/octet-stream', body);
  } catch {
    return send(404, 'text/plain; charset=utf-8', 'not found\n');
  }
}

/** out/renderer/ when it holds a built renderer, else null. */
export function rendererRoot(dir: string): string | null {
  try {
    const real = realpathSync(dir);
    return statSync(path.join(real, 'index.html')).isFile() ? real : null;
  } catch {
    return null;
  }
}
