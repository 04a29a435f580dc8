// The window with a session on another host (DESIGN.md §12, §13), in Chromium: a real `mori ui` whose
// home has a remote `box` reached over a real OpenSSH server on loopback (testkit/sshd.ts), box
// being a second Mori home with the fake agent, and a remote `gone` that nobody answers for. This
// host's session shows at once all the same, and the sidebar says gone is unreachable and why. The
// list shows box's session as `box:work` under `box: project`, beside this host's own `project`; its
// terminal shows box's agent, typing reaches it there, and its question is a notice naming box:work;
// its session_state.md is read and saved on box; stopped, a rename is refused by box's bridge (an
// approval there) with its reason in the dialog.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MORI_BIN, moriIn } from '../../testkit/mori-cli.js';
import { UpHarness } from '../support/mori-up.js';
import { freePort, shq, SKIP_WITHOUT_SSHD, SshServer } from '../../testkit/sshd.js';
import { until } from '../../testkit/until.js';
import { buildRenderer, CHROMIUM, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;
let sshd: SshServer;
let box: UpHarness;

const record = (): string => (existsSync(box.record) ? readFileSync(box.record, 'utf8') : '');

describe.skipIf((!existsSync(CHROMIUM) || SKIP_WITHOUT_SSHD) && !process.env['CI'])('the window with a session on another host', () => {
  beforeAll(async () => {
    await buildRenderer();
    sshd = new SshServer();
    await sshd.start();
    box = new UpHarness('window-box');
    box.init('work', 'direct');
    w = new WindowHarness('window-remote');
    w.h.init('mine', 'direct');
    const env = { ...box.env, MORI_HOME: box.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const bridge = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v ?? ''}`)), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
    const add = moriIn(w.h.home, ['remote', 'add', 'box', sshd.destination, ...sshd.optionFlags(), '--remote-command', bridge]);
    expect(add.code, add.err).toBe(0);
    // A second remote nobody answers for: the window must not wait on it.
    const gone = moriIn(w.h.home, ['remote', 'add', 'gone', sshd.destination, ...sshd.optionFlags(await freePort()), '--remote-command', bridge]);
    expect(gone.code, gone.err).toBe(0);
    await w.start();
  }, 120_000);

  afterAll(async () => {
    // The shared ssh connections first: stopping the window removes the home that holds their sockets.
    const shared = w ? path.join(w.h.home, 'ssh') : '';
    if (shared && existsSync(shared)) for (const f of readdirSync(shared)) spawnSync('ssh', ['-o', `ControlPath=${path.join(shared, f)}`, '-O', 'exit', 'shared'], { stdio: 'ignore', timeout: 10_000 });
    await w?.stop();
    box?.cleanup();
    sshd?.stop();
  });

  it("lists box's session as box:work beside this host's, and its terminal is box's agent, typed into there", { timeout: 120_000 }, async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    // This host's session shows at once, the unreachable remote notwithstanding, which says why.
    await list.getByRole('option', { name: /mine/ }).waitFor({ timeout: 10_000 });
    const away = page.getByRole('list', { name: 'Remote hosts not connected' });
    await away.getByRole('listitem').filter({ hasText: /gone — unreachable: .*(refused|cannot be reached)/ }).waitFor({ timeout: 30_000 });
    // box's daemon is started by its bridge on the first login; its session comes up then.
    await list.getByRole('option', { name: /box:work/ }).waitFor({ timeout: 60_000 });
    // Grouped under its host and folder, apart from this host's folder of the same name.
    await list.getByRole('group', { name: 'box: project' }).getByRole('option', { name: /box:work/ }).waitFor();
    await list.getByRole('group', { name: 'project', exact: true }).getByRole('option', { name: /mine/ }).waitFor();
    await list.getByRole('option', { name: /box:work/ }).click();
    await expect.poll(() => list.getByRole('option', { name: /box:work/ }).getAttribute('aria-selected')).toBe('true');
    // box answers: only gone is listed as not connected.
    expect(await away.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^gone — unreachable/)]);
    const terminal = page.getByRole('region', { name: 'Terminal' });
    await terminal.getByText('Fake Agent').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
    await until('box agent to wait for input', () => record().includes('"event":"start"'), record, 30_000);
    await terminal.click();
    await page.keyboard.type('hello-from-the-window-to-box');
    await page.keyboard.press('Enter');
    await until('box agent to receive the line', () => record().includes('"line":"hello-from-the-window-to-box"'), () => record().slice(-500));
    await expect.poll(() => terminal.innerText(), { timeout: 25_000 }).toMatch(/❯ hello-from-the-window-to-box/);
    await w.shot('remote-terminal');
    // box's agent asks the person: the window's notice names the host.
    await page.keyboard.type('ask');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Notifications' }).getByText('box:work needs input').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => list.getByRole('option', { name: /box:work/ }).innerText(), { timeout: 25_000 }).toMatch(/needs input/);
  });

  it("reads box's session_state.md in its editor and saves an edit there", { timeout: 90_000 }, async () => {
    const { page } = w;
    await page.getByRole('listbox', { name: 'Sessions' }).getByRole('option', { name: /box:work/ }).click();
    await page.getByRole('tab', { name: 'session_state.md' }).click();
    const editor = page.getByRole('textbox', { name: 'session_state.md text' });
    await editor.getByText('Current Task').waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- edited in the window, saved on box');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 30_000 });
    const file = path.join(box.stateDir('work'), 'session_state.md');
    await until('the edit saved on box', () => readFileSync(file, 'utf8').includes('- edited in the window, saved on box'), () => readFileSync(file, 'utf8').slice(-300));
  });

  it('stops box:work; a rename, the name edited after box:, is refused there with why (an approval on box)', { timeout: 90_000 }, async () => {
    const { page } = w;
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await list.getByRole('option', { name: /box:work/ }).click();
    const header = page.locator('header.session-header');
    await header.getByRole('button', { name: 'Stop…' }).click();
    await page.getByRole('dialog', { name: 'Stop box:work?' }).getByRole('button', { name: 'Stop agent' }).click();
    await expect.poll(() => list.getByRole('option', { name: /box:work/ }).innerText(), { timeout: 30_000 }).toMatch(/stopped/);
    await header.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Rename…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename session' });
    const field = dialog.getByRole('textbox', { name: 'New name (on box)' });
    expect(await field.inputValue()).toBe('work');
    await field.fill('work2');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    // Renaming moves the state dir: an approval, which box takes from the person there, not over ssh.
    await dialog.getByRole('alert').getByText(/renaming a session is not done through `mori bridge`/).waitFor({ timeout: 30_000 });
    expect(existsSync(box.stateDir('work'))).toBe(true);
    expect(existsSync(box.stateDir('work2'))).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
