// End-to-end harness for the window: builds the renderer when stale (Vite, as `npm run build:renderer`), runs a
// real `mori ui` (which starts a real daemon) in a temp MORI_HOME with its own tmux socket and the
// fake agent behind the claude profile, and drives Debian's Chromium (playwright-core) at it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { MORI_BIN, REPO } from '../../testkit/mori-cli.js';
import { SECRET_STORAGE_KEY } from '../../common/web-session-names.js';
import { UpHarness } from './mori-up.js';
import { until } from '../../testkit/until.js';

export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots go: under out/ (not committed); `node scripts/docs-screenshots.mjs` copies the ones README links to docs/screenshots/. */
export const SHOTS = path.join(REPO, 'out', 'e2e-screenshots');
/** The size the screenshots are taken at: a common laptop screen. */
export const VIEWPORT = { width: 1440, height: 900 };
/** A phone held upright (an iPhone 12 to 15's CSS pixels), for the window's narrow layout. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };
/** A phone's browser: touch events and taps, the page's viewport meta honoured. */
export const PHONE = { isMobile: true, hasTouch: true } as const;

/** Newest modification time under `dir` (files only), 0 when it does not exist. */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/** The built renderer is older than what it is built from (or missing). */
function rendererStale(): boolean {
  const index = path.join(REPO, 'out', 'renderer', 'index.html');
  if (!existsSync(index)) return true;
  const sources = Math.max(newestMtime(path.join(REPO, 'renderer')), newestMtime(path.join(REPO, 'common')), statSync(path.join(REPO, 'vite.renderer.config.ts')).mtimeMs);
  return sources > statSync(index).mtimeMs;
}

/** How long one test file waits for another's renderer build: a build takes seconds, a loaded runner a minute. */
const BUILD_WAIT_MS = 180_000;

/**
 * Builds the renderer (as `npm run build:renderer`) when its sources are newer than the build, one
 * test file at a time: a build empties out/renderer first, which would take the lazily loaded parts
 * (the Changes tab) from under a page another test file has open. The first file builds; the others
 * wait for it and find the build current.
 */
export async function buildRenderer(): Promise<void> {
  const lock = path.join(REPO, 'out', '.renderer-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Held by another file's build; past the deadline a crashed holder is assumed and it is taken over.
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (rendererStale()) await build({ configFile: path.join(REPO, 'vite.renderer.config.ts'), logLevel: 'warn' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The windows open now, for the failure report (test/support/setup/window-failure-report.ts). */
export const openWindows = new Set<WindowHarness>();

export class WindowHarness {
  readonly h: UpHarness;
  ui: ChildProcess | null = null;
  url = '';
  browser: Browser | null = null;
  /** What the page logged as errors, with where from: a resource the web host did not serve, a script's error. */
  readonly consoleErrors: string[] = [];
  page!: Page;
  /** What `mori ui` wrote to stderr (shown when a test cannot find what it waits for). */
  uiErr = '';
  /** More arguments for `mori ui` (`--tls-cert F --tls-key F`), set before start(). */
  readonly uiArgs: string[] = [];

  constructor(
    prefix: string,
    private readonly viewport = VIEWPORT,
    /** The environment of the daemon `mori ui` starts, and of the test's `mori` commands. */
    env: NodeJS.ProcessEnv = {},
    /**
     * The browser's kind: PHONE for a touch screen that honours the page's viewport meta; a desktop's
     * without. ignoreHTTPSErrors for a `mori ui` with a self-signed certificate the test made.
     */
    private readonly device: { isMobile?: boolean; hasTouch?: boolean; ignoreHTTPSErrors?: boolean } = {},
  ) {
    this.h = new UpHarness(prefix, env);
    mkdirSync(SHOTS, { recursive: true });
  }

  async start(): Promise<void> {
    const ui = spawn(process.execPath, [MORI_BIN, 'ui', '--no-open', '--json', ...this.uiArgs], {
      cwd: this.h.project,
      env: { ...process.env, MORI_HOME: this.h.home, ...this.h.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.ui = ui;
    let out = '';
    ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    ui.stderr?.on('data', (d: Buffer) => (this.uiErr += d.toString()));
    await until('the URL of mori ui', () => out.includes('\n'), () => this.uiErr);
    this.url = (JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url;
    this.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await this.browser.newContext({ viewport: this.viewport, ...this.device });
    // The browser's notifications allowed, and each one the page raises recorded in `window.shownNotifications` (its title) and `window.shownNotificationObjects`.
    await context.grantPermissions(['notifications']);
    await context.addInitScript(`{
      const Real = window.Notification;
      window.shownNotifications = [];
      window.shownNotificationObjects = [];
      window.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          window.shownNotifications.push(title);
          window.shownNotificationObjects.push(this);
        }
      };
    }`);
    this.page = await context.newPage();
    openWindows.add(this);
    this.page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    this.page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    await this.page.goto(this.url);
    // The link's one-time token has left the address bar at once; a reload before its exchange has
    // answered (a loaded runner: seconds) would find neither the token nor the secret. Tests begin
    // once the page holds its secret, as a person's tab does a moment after it opened.
    await this.page.waitForFunction((key) => sessionStorage.getItem(key) !== null, SECRET_STORAGE_KEY, { timeout: 60_000 });
  }

  /** The pid of the daemon `mori ui` started (it says so on stderr), or null when one was running already. */
  daemonPid(): number | null {
    const m = /started a daemon \(pid (\d+)/.exec(this.uiErr);
    return m?.[1] ? Number(m[1]) : null;
  }

  /** The titles of the browser notifications the page raised so far. */
  notifications(): Promise<string[]> {
    return this.page.evaluate<string[]>('window.shownNotifications');
  }

  /** Clicks the latest browser notification the page raised with this title, as the person would on the desktop. */
  async clickNotification(title: string): Promise<void> {
    const clicked = await this.page.evaluate((t) => {
      const shown = (window as unknown as { shownNotificationObjects: Notification[] }).shownNotificationObjects.filter((n) => n.title === t).at(-1);
      shown?.onclick?.call(shown, new Event('click'));
      return shown !== undefined;
    }, title);
    if (!clicked) throw new Error(`no browser notification titled ${title}`);
  }

  async shot(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      // Two frames: the theme's CSS and the terminal's colours repaint.
      await this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await this.page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
  }

  async stop(): Promise<void> {
    openWindows.delete(this);
    await this.browser?.close();
    this.ui?.kill('SIGTERM');
    const daemon = this.daemonPid();
    this.h.cleanup();
    // A daemon that did not answer `mori down` in time (a loaded machine, a test that stopped it)
    // must not outlive its deleted home and keep a core busy for the tests that follow.
    if (daemon !== null) {
      try {
        process.kill(daemon, 'SIGCONT');
        process.kill(daemon, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
