// The editor as a host developer meets it: a page whose origin no eshop allows (localhost for
// 127.0.0.1) is told so by name, with a way to try again; ui-lang as navigator.language gives
// it (cs-CZ) and the host's own texts; a page with a strict Content-Security-Policy still gets
// a styled editor and preview, and hears of what its policy blocks; the admin's theme stays out
// of the content preview; ::part() reaches the main regions. Screenshots at 375 and 1440 px;
// axe finds no violation in these states.
import { createServer, type Server } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { eventually, freePort } from '@catalogue/testing';
import {
  editorHarness,
  hostEvents,
  inPage,
  shot,
  waitForEvent,
  type EditorEvent,
  type EditorEvents,
} from './harness';

// A busy 2-core machine runs these; the browser steps wait on real services, not on timers.
jest.setTimeout(120_000);

const h = editorHarness('editor-host');

const shadow = (expression: string) => `document.querySelector('ccs-editor').shadowRoot.${expression}`;

/**
 * axe on the editor: no violation at all, whatever its impact. One is set aside: the role
 * `textbox` the in-place editing gives a heading of the preview (aria-allowed-role, minor),
 * which belongs to the in-place editing, not to what these tests look at.
 */
async function expectNoViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include('ccs-editor').analyze();
  const editableHeadings = await inPage<number>(
    page,
    shadow(`querySelectorAll('.widget-body .ccs-editable[role="textbox"]').length`),
  );
  const violations = result.violations.filter(
    (v) => !(v.id === 'aria-allowed-role' && editableHeadings > 0 && v.nodes.length <= editableHeadings),
  );
  expect({
    state,
    violations: violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  }).toEqual({ state, violations: [] });
}

/** Screenshots of the page at 375 and 1440 px wide (the state is looked at, not compared). */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
}

/**
 * Waits until `expression` is true in the page, asking it again and again: waitForFunction
 * evaluates its predicate with eval, which a strict CSP refuses; a DevTools evaluation is not.
 */
async function until(page: Page, expression: string, timeout = 60_000): Promise<void> {
  await eventually(async () => {
    if (!(await inPage<boolean>(page, expression))) throw new Error(`timed out waiting for ${expression}`);
  }, timeout);
}

/** The detail of the host's `count`-th event of this name (eval-free, for strict pages). */
async function eventOf<N extends keyof EditorEvents>(
  page: Page,
  name: N,
  count = 1,
): Promise<EditorEvents[N]> {
  const named = `(window.ccsEvents || []).filter((e) => e.name === ${JSON.stringify(name)})`;
  await until(page, `${named}.length >= ${count}`);
  return inPage(page, `${named}[${count - 1}].detail`);
}

/** Adds the catalogue's first widget through the editor's own panel. */
async function addFirstWidget(page: Page, addLabel = 'Add widget'): Promise<void> {
  const editor = page.locator('ccs-editor');
  await editor.getByRole('button', { name: addLabel }).click();
  await editor.locator('ccs-add-panel button.choice').first().click();
  await eventOf(page, 'ccs-change');
}

describe('<ccs-editor> and its host page', () => {
  test('when the page is on localhost but the eshop allows 127.0.0.1, then the editor names the origin, emits origin_not_allowed and offers to try again', async () => {
    const shop = await h.shop();
    const localhost = h.origin.replace('127.0.0.1', 'localhost');
    const page = await h.open({ token: shop.whiteLabelToken, origin: localhost });
    const error = await waitForEvent(page, 'ccs-error');
    expect(error).toMatchObject({ status: 403, code: 'origin_not_allowed' });
    const editor = page.locator('ccs-editor');
    expect(await editor.locator('[role="alert"]').first().textContent()).toBe(
      `This page (${localhost}) is not allowed to use the editor of this eshop. Ask whoever runs your shop admin to allow it.`,
    );
    const retry = editor.getByRole('button', { name: 'Try again' });
    expect(await retry.isVisible()).toBe(true);
    await expectNoViolations(page, 'origin refused');
    await shots(page, 'origin-not-allowed');
    // Trying again asks again (and is refused again: the origin is still not allowed).
    await retry.click();
    await waitForEvent(page, 'ccs-error', 2);
    await page.close();
  });

  test('when the licence is not valid, then ccs-error says licence_invalid and a Retry is offered', async () => {
    const shop = await h.shop({ licenceValidUntil: '2020-01-01' });
    const page = await h.open({ token: shop.whiteLabelToken, entityId: 'LIC-1' });
    expect(await waitForEvent(page, 'ccs-error')).toMatchObject({ status: 403, code: 'licence_invalid' });
    expect(await page.locator('ccs-editor').getByRole('button', { name: 'Try again' }).isVisible()).toBe(
      true,
    );
    await expectNoViolations(page, 'licence refused');
    await shots(page, 'licence-invalid');
    await page.close();
  });

  test('when ui-lang is cs-CZ (as navigator.language gives it), then the editor speaks Czech; the host replaces a text and adds a language', async () => {
    const shop = await h.shop();
    const page = await h.open({ token: shop.whiteLabelToken, uiLang: 'cs-CZ', entityId: 'CZ-1' });
    await waitForEvent(page, 'ccs-ready');
    const editor = page.locator('ccs-editor');
    // The catalogue's names, categories and descriptions (English from the API) in Czech too.
    await editor.getByRole('button', { name: 'Přidat widget' }).click();
    const panel = editor.locator('ccs-add-panel');
    await panel.locator('button.choice').first().waitFor();
    expect(await panel.locator('button.choice strong').first().textContent()).toBe('Sekce');
    expect(await panel.getByText('Nadpis s odstavcem textu.').count()).toBe(1);
    expect(await panel.locator('option', { hasText: 'Prodejní argumenty' }).count()).toBe(1);
    await panel.locator('button.choice').first().click();
    await waitForEvent(page, 'ccs-change');
    expect(await editor.locator('.widget-bar .name').first().textContent()).toContain('Sekce');
    expect(await editor.getByRole('button', { name: 'Načíst znovu' }).count()).toBe(1);
    await expectNoViolations(page, 'cs-CZ');
    await shots(page, 'ui-lang-cs-CZ');

    // The host's own word for one text and one widget name; the rest stays Czech.
    await inPage(
      page,
      `document.querySelector('ccs-editor').messages = { cs: { add: 'Nový blok', 'widget.section': 'Oddíl' } }`,
    );
    await editor.getByRole('button', { name: 'Nový blok' }).waitFor();
    expect(await editor.locator('.widget-bar .name').first().textContent()).toContain('Oddíl');
    expect(await editor.getByRole('button', { name: 'Načíst znovu' }).count()).toBe(1);

    // A language the editor does not have: the host's texts, English where it has none.
    await inPage(
      page,
      `(() => { const el = document.querySelector('ccs-editor');
        el.messages = { 'it-IT': { add: 'Aggiungi widget', refresh: 'Ricarica' } };
        el.setAttribute('ui-lang', 'it'); })()`,
    );
    await editor.getByRole('button', { name: 'Aggiungi widget' }).waitFor();
    expect(await editor.getByRole('button', { name: 'Ricarica' }).count()).toBe(1);
    expect(await editor.getByRole('button', { name: 'Designs' }).count()).toBe(1);
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    await page.close();
  });
});

/**
 * A host page with a strict Content-Security-Policy: no inline script or style, the editor's
 * script and API allowed by origin. `/?connect=self` leaves the API out of connect-src.
 */
async function startStrictHost(apiBase: () => string): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname === '/host.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(`window.ccsEvents = [];
for (const name of ['ccs-ready', 'ccs-change', 'ccs-generation', 'ccs-error'])
  document.addEventListener(name, (e) => window.ccsEvents.push({ name, detail: e.detail }));`);
      return;
    }
    if (url.pathname === '/host.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' });
      // The admin's theme (its accent must not reach the content preview) and a part.
      res.end(`body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 64rem; padding: 1rem; }
ccs-editor { --ccs-accent: rgb(200, 0, 0); }
ccs-editor::part(header) { border-bottom: 4px solid rgb(1, 2, 3); }`);
      return;
    }
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const api = apiBase();
    const q = url.searchParams;
    const connect = q.get('connect') === 'self' ? "'self'" : api;
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'self'; script-src 'self' ${api}; style-src 'self'; connect-src ${connect}; img-src * data:`,
    });
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Strict admin</title>
<link rel="stylesheet" href="/host.css">
<script src="/host.js"></script>
<script type="module" src="${api}/editor/v1/ccs-editor.js"></script>
</head><body><main><h1>Strict admin</h1>
<ccs-editor api-base="${api}" token="${q.get('token') ?? ''}" entity-id="${q.get('entity') ?? 'CSP-1'}" entity-title="Trail shoe" ui-lang="en"></ccs-editor>
</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

describe('<ccs-editor> under a strict Content-Security-Policy', () => {
  let strict: { server: Server; origin: string };
  beforeAll(async () => {
    strict = await startStrictHost(() => h.wl.url);
  });
  afterAll(() => new Promise((r) => strict?.server.close(r)));

  test("when the page allows style-src 'self' only, then the editor and the content preview are styled, the admin's accent stays out of the preview, and ::part reaches the header", async () => {
    const shop = await h.shop({ origins: [strict.origin] });
    const page = await h.open({ token: shop.whiteLabelToken, origin: strict.origin, entityId: 'CSP-1' });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await eventOf(page, 'ccs-ready');
    await addFirstWidget(page);
    // The content stylesheet applies to the preview (its private theme copy is set on every widget).
    await until(
      page,
      shadow(
        `querySelector('.widget-body .ccs-widget') && getComputedStyle(document.querySelector('ccs-editor').shadowRoot.querySelector('.widget-body .ccs-widget')).getPropertyValue('--_ccs-accent').trim() !== ''`,
      ),
    );
    const looks = await inPage<Record<string, string | number>>(
      page,
      `(() => { const root = document.querySelector('ccs-editor').shadowRoot;
        const widget = root.querySelector('.widget-body .ccs-widget');
        return {
          previewAccent: getComputedStyle(widget).getPropertyValue('--_ccs-accent').trim(),
          chromeButtonRadius: getComputedStyle(root.querySelector('.toolbar button')).borderTopLeftRadius,
          chromeAccent: getComputedStyle(root.querySelector('header')).getPropertyValue('--_accent').trim(),
          headerBorder: getComputedStyle(root.querySelector('header')).borderBottomColor,
          inlineStyles: root.querySelectorAll('[style]').length + root.querySelectorAll('style, link').length,
        }; })()`,
    );
    expect(looks).toEqual({
      previewAccent: '#0b5cad', // the content stylesheet's default, not the admin's red
      chromeButtonRadius: '6px',
      chromeAccent: 'rgb(200, 0, 0)',
      headerBorder: 'rgb(1, 2, 3)',
      inlineStyles: 0,
    });
    expect((await hostEvents(page)).filter((e) => e.name === 'ccs-error')).toEqual([]);
    expect(violations).toEqual([]);
    await expectNoViolations(page, 'strict CSP');
    await shots(page, 'strict-csp');
    await page.close();
  });

  test('when the policy leaves the API out of connect-src, then ccs-error says csp_blocked and names the directive', async () => {
    const shop = await h.shop({ origins: [strict.origin] });
    const context = await page0(strict.origin, shop.whiteLabelToken);
    const detail = await eventOf(context, 'ccs-error');
    const blocked = (await hostEvents(context)).find(
      (e): e is EditorEvent<'ccs-error'> => e.name === 'ccs-error' && e.detail.code === 'csp_blocked',
    );
    expect(detail).toBeDefined();
    expect(blocked?.detail).toMatchObject({ code: 'csp_blocked', directive: 'connect-src' });
    expect(blocked?.detail.blocked).toContain(h.wl.url);
    // The editor shows it too, next to the failure it caused, with a way to try again.
    await until(context, shadow(`querySelector('button.retry') !== null`));
    expect(
      await context
        .locator('ccs-editor')
        .getByText(/Content-Security-Policy blocks the editor \(connect-src/)
        .count(),
    ).toBe(1);
    await expectNoViolations(context, 'csp blocked');
    await shots(context, 'csp-blocked');
    await context.close();
  });

  /** The strict page with the API left out of connect-src. */
  async function page0(origin: string, token: string): Promise<Page> {
    const page = await h.open({ token, origin });
    await page.goto(`${origin}/?connect=self&token=${encodeURIComponent(token)}`);
    return page;
  }
});
