import { createServer, type Server } from 'node:http';

export interface DemoHostOptions {
  port: number;
  /** Where white-label-api answers, as the browser reaches it. */
  apiBase: string;
  whiteLabelToken: string;
  entityId?: string;
  entityTitle?: string;
  /** The title per language (`entity-titles`); without it and `entityTitle`, the demo product's. */
  entityTitles?: Record<string, string>;
  uiLang?: string;
}

/** The demo product's title in the demo eshop's languages (a cs generation writes from cs text). */
const DEMO_TITLES = { default: 'Trail shoe', cs: 'Trailová bota', en: 'Trail shoe' };

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The demo host page: what an eshop admin does to embed the editor — one module script from
 * white-label-api and one element — plus a log of the editor's `ccs-*` events, and a
 * performance mark when the first widget is on screen (read by `npm run bench:editor`).
 */
export function demoHostPage(opts: DemoHostOptions): string {
  const a = (s: string) => escapeAttr(s);
  const titles = opts.entityTitles ?? (opts.entityTitle === undefined ? DEMO_TITLES : undefined);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Demo eshop admin — content editor</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f9fafb; color: #111827; }
  header, main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
  header { border-bottom: 1px solid #e5e7eb; }
  ccs-editor { display: block; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; min-height: 12rem; }
  #events { font: 0.8rem ui-monospace, monospace; max-height: 10rem; overflow: auto; background: #111827; color: #e5e7eb; padding: 0.5rem; border-radius: 6px; overflow-wrap: anywhere; }
</style>
<script type="module" src="${a(opts.apiBase)}/editor/v1/ccs-editor.js"></script>
</head>
<body>
<header><h1>Demo eshop admin</h1><p>Product <strong>${a(opts.entityTitle ?? 'Trail shoe')}</strong>: its description, edited with the embedded content editor.</p></header>
<main>
<ccs-editor api-base="${a(opts.apiBase)}" token="${a(opts.whiteLabelToken)}" entity-id="${a(opts.entityId ?? 'DEMO-1')}"
  entity-type="product" entity-title="${a(opts.entityTitle ?? 'Trail shoe')}"
  ${titles ? `entity-titles="${a(JSON.stringify(titles))}" ` : ''}ui-lang="${a(opts.uiLang ?? 'en')}"></ccs-editor>
<h2>Events the host page received</h2>
<ol id="events" aria-live="off"></ol>
</main>
<script>
  window.ccsEvents = [];
  for (const name of ['ccs-ready', 'ccs-change', 'ccs-dirty', 'ccs-generation', 'ccs-published', 'ccs-draft-discarded', 'ccs-error']) {
    document.addEventListener(name, (e) => {
      window.ccsEvents.push({ name, detail: e.detail });
      const li = document.createElement('li');
      li.textContent = name + ' ' + JSON.stringify(e.detail);
      document.getElementById('events').append(li);
    });
  }
</script>
</body>
</html>
`;
}

/** Serves the demo host page on `port` (every path answers the page). */
export function startDemoHost(opts: DemoHostOptions): Promise<Server> {
  const page = demoHostPage(opts);
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, () => resolve(server));
  });
}

/**
 * What `npm start` lets webhook endpoints use although not public (WEBHOOK_ALLOW_PRIVATE, when
 * unset): a receiver on this machine, any port, as the README's webhook example registers.
 */
export const LOCAL_WEBHOOK_RECEIVERS = 'localhost:*,127.0.0.1:*';
