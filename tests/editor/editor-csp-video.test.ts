// A video's player in the content preview is a frame from YouTube or Vimeo: under a strict
// Content-Security-Policy without frame-src for them it is blocked, and the editor says so
// (`csp_blocked`, `frame-src`); with the README's policy (frame-src naming them) nothing is blocked.
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { eventually, freePort } from '@catalogue/testing';
import { productWith } from './content';
import { editorHarness, hostEvents, inPage, shot, type EditorEvent } from './harness';

jest.setTimeout(180_000);

const h = editorHarness('editor-csp-video');

/** The frame sources the README's policy names for the video preview. */
const VIDEO_FRAMES = 'https://www.youtube-nocookie.com https://player.vimeo.com';

/** A strict host page; `/?frames=1` adds the README's frame-src for the video players. */
async function startStrictHost(apiBase: () => string): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname === '/host.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(`window.ccsEvents = [];
for (const name of ['ccs-ready', 'ccs-change', 'ccs-error'])
  document.addEventListener(name, (e) => window.ccsEvents.push({ name, detail: e.detail }));`);
      return;
    }
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const api = apiBase();
    const q = url.searchParams;
    const frames = q.get('frames') === '1' ? `; frame-src ${VIDEO_FRAMES}` : '';
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'self'; script-src 'self' ${api}; style-src 'self'; connect-src ${api}; img-src * data:${frames}`,
    });
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Strict admin</title>
<script src="/host.js"></script>
<script type="module" src="${api}/editor/v1/ccs-editor.js"></script>
</head><body><main><h1>Strict admin</h1>
<ccs-editor api-base="${api}" token="${q.get('token') ?? ''}" entity-id="${q.get('entity') ?? ''}" entity-title="Breeze" ui-lang="en"></ccs-editor>
</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Waits (eval-free: the page's policy refuses eval) until `expression` holds. */
async function until(page: Page, expression: string, timeout = 30_000): Promise<void> {
  await eventually(async () => {
    if (!(await inPage<boolean>(page, expression))) throw new Error(`timed out waiting for ${expression}`);
  }, timeout);
}

const cspErrors = async (page: Page): Promise<Array<EditorEvent<'ccs-error'>>> =>
  (await hostEvents(page)).filter(
    (e): e is EditorEvent<'ccs-error'> => e.name === 'ccs-error' && e.detail.code === 'csp_blocked',
  );

describe('<ccs-editor> video preview under a strict Content-Security-Policy', () => {
  let strict: { server: Server; origin: string };
  beforeAll(async () => {
    strict = await startStrictHost(() => h.wl.url);
  });
  afterAll(() => new Promise((r) => strict?.server.close(r)));

  /** The player's frame has been asked for (it got past the policy). */
  let playerAsked = false;

  async function openVideo(frames: boolean): Promise<Page> {
    const shop = await h.shop({ origins: [h.origin, strict.origin] });
    await productWith(shop, 'VID-1', ['video']);
    const page = await h.open({ token: shop.whiteLabelToken, origin: strict.origin, width: 1280 });
    // The player is served here (no network): a frame the policy refuses never asks for it.
    playerAsked = false;
    await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) => {
      playerAsked = true;
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Player</title>' });
    });
    const q = new URLSearchParams({
      token: shop.whiteLabelToken,
      entity: 'VID-1',
      ...(frames && { frames: '1' }),
    });
    await page.goto(`${strict.origin}/?${q.toString()}`);
    await until(page, `(window.ccsEvents || []).some((e) => e.name === 'ccs-ready')`);
    await until(page, `!!document.querySelector('ccs-editor').shadowRoot.querySelector('li.widget iframe')`);
    return page;
  }

  test('when the policy names no frame-src, then the blocked player is reported as csp_blocked frame-src and shown', async () => {
    const page = await openVideo(false);
    await until(page, `(window.ccsEvents || []).some((e) => e.name === 'ccs-error')`);
    const [blocked] = await cspErrors(page);
    expect(blocked?.detail).toMatchObject({
      code: 'csp_blocked',
      directive: 'frame-src',
      entity_id: 'VID-1',
    });
    expect(blocked?.detail.blocked).toMatch(/^https:\/\/www\.youtube-nocookie\.com/);
    expect(
      await page
        .locator('ccs-editor')
        .getByText(/Content-Security-Policy blocks the editor \(frame-src/)
        .count(),
    ).toBe(1);
    await shot(page, 'csp-video-blocked');
    await page.close();
  });

  test("when the policy has the README's frame-src, then the player is not blocked", async () => {
    const page = await openVideo(true);
    // The policy is checked before the frame asks for the player: once it has, nothing was blocked.
    await eventually(() => expect(playerAsked).toBe(true), 30_000);
    expect(await cspErrors(page)).toEqual([]);
    expect(
      await inPage(
        page,
        `document.querySelector('ccs-editor').shadowRoot.querySelectorAll('[role="alert"]').length`,
      ),
    ).toBe(0);
    await shot(page, 'csp-video-allowed');
    await page.close();
  });
});
