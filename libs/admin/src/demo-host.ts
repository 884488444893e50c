import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface DemoHostOptions {
  port: number;
  /** Where white-label-api answers, as the browser reaches it. */
  apiBase: string;
  whiteLabelToken: string;
  entityId?: string;
  entityTitle?: string;
  /** The title per language (`entity-titles`); without it and `entityTitle`, the demo product's. */
  entityTitles?: Record<string, string>;
  /**
   * The editor's UI language (`ui-lang`). Unset, the page asks for the browser's languages
   * (Accept-Language), as an admin that knows its user's language would; `?ui-lang=` wins.
   */
  uiLang?: string;
  /** The bulk generation form and its progress panel (shown only when given). */
  bulk?: DemoBulkOptions;
}

/**
 * What the demo page's "Generate for the whole catalogue" form needs: this server calls the
 * catalogue API with the eshop's API token, which stays here (the page never sees it).
 */
export interface DemoBulkOptions {
  /** Where catalogue-api answers, as this server reaches it. */
  catalogueApi: string;
  apiToken: string;
  /** The content languages offered (the eshop's active ones). */
  languages: string[];
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
  #bulk { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
  #bulk h2 { margin-top: 0; }
  #bulk form { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; align-items: end; }
  #bulk fieldset { border: 0; padding: 0; margin: 0; display: flex; gap: 0.75rem; flex-wrap: wrap; }
  #bulk legend { font-weight: 600; margin-bottom: 0.25rem; }
  #bulk label { display: inline-flex; gap: 0.4rem; align-items: center; }
  #bulk input[type=number] { width: 8rem; font: inherit; padding: 0.35rem 0.5rem; }
  #bulk button { font: inherit; min-height: 2.75rem; padding: 0.25rem 0.9rem; border-radius: 6px; border: 1px solid #1d4ed8; background: #fff; color: #1d4ed8; cursor: pointer; }
  #bulk button.primary { background: #1d4ed8; color: #fff; }
  #bulk button:focus-visible, #bulk input:focus-visible, #bulk-said:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  #bulk-said { min-height: 1.5rem; }
  ccs-batch-progress { display: block; margin-top: 1rem; border-top: 1px solid #e5e7eb; padding-top: 1rem; }
  #events { font: 0.8rem ui-monospace, monospace; max-height: 10rem; overflow: auto; background: #111827; color: #e5e7eb; padding: 0.5rem; border-radius: 6px; overflow-wrap: anywhere; }
</style>
<script type="module" src="${a(opts.apiBase)}/editor/v1/ccs-editor.js"></script>
${opts.bulk ? `<script type="module" src="${a(opts.apiBase)}/editor/v1/ccs-batch-progress.js"></script>\n` : ''}</head>
<body>
<header><h1>Demo eshop admin</h1><p>Product <strong>${a(opts.entityTitle ?? 'Trail shoe')}</strong>: its description, edited with the embedded content editor.</p></header>
<main>
<ccs-editor api-base="${a(opts.apiBase)}" token="${a(opts.whiteLabelToken)}" entity-id="${a(opts.entityId ?? 'DEMO-1')}"
  entity-type="product" entity-title="${a(opts.entityTitle ?? 'Trail shoe')}"
  ${titles ? `entity-titles="${a(JSON.stringify(titles))}" ` : ''}ui-lang="${a(opts.uiLang ?? 'en')}"></ccs-editor>
${opts.bulk ? bulkSection(opts, opts.bulk) : ''}
<h2>Events the host page received</h2>
<ol id="events" aria-live="off"></ol>
</main>
<script>
  window.ccsEvents = [];
  for (const name of ['ccs-ready', 'ccs-change', 'ccs-dirty', 'ccs-generation', 'ccs-published', 'ccs-draft-discarded', 'ccs-error', 'ccs-batch-progress', 'ccs-batch-finished']) {
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

/**
 * The demo host page's server: the page on every path, and (with `bulk`) the form's two calls,
 * `POST /bulk/estimate` and `POST /bulk/start`.
 */
export function demoHostHandler(opts: DemoHostOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (opts.bulk && req.method === 'POST' && (req.url === '/bulk/estimate' || req.url === '/bulk/start')) {
      void startBulk(req, res, opts.bulk, req.url === '/bulk/estimate');
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Vary: 'Accept-Language',
    });
    res.end(demoHostPage({ ...opts, uiLang: demoUiLang(req, opts.uiLang) }));
  };
}

/** The longest `ui-lang` the page passes on (a language list; the editor reads its first matches). */
const UI_LANG_MAX = 200;

/**
 * The UI language the page gives the editor: `?ui-lang=` when given, else the configured one,
 * else the browser's (Accept-Language: a list the editor matches with its languages, English when
 * none is one of them).
 */
export function demoUiLang(req: IncomingMessage, configured: string | undefined): string {
  // A request-target no URL parses (`GET http://[`) asks for nothing.
  const asked = URL.parse(req.url ?? '/', 'http://demo.invalid')
    ?.searchParams.get('ui-lang')
    ?.trim();
  const browser = req.headers['accept-language']?.trim();
  const chosen = asked || configured || browser || 'en';
  return chosen.length <= UI_LANG_MAX ? chosen : 'en';
}

/** Serves the demo host page on `port` (every path answers the page). */
export function startDemoHost(opts: DemoHostOptions): Promise<Server> {
  const server = createServer(demoHostHandler(opts));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, () => resolve(server));
  });
}

/** The largest body the bulk form sends. */
const BULK_BODY_MAX = 4_096;

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
};

/**
 * The form's estimate (a dry run) or start of a bulk generation of the eshop's products, asked
 * of the catalogue API with the API token kept on this server; its answer (status and body) is
 * passed on as it is. Only this page's script can ask: the body must be JSON, which a page of
 * another origin can send only after a preflight this server never answers.
 */
async function startBulk(req: IncomingMessage, res: ServerResponse, bulk: DemoBulkOptions, dryRun: boolean) {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    req.resume();
    return json(res, 415, { error: 'Send JSON', code: 'unsupported_media_type' });
  }
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > BULK_BODY_MAX)
      return json(res, 413, { error: 'Body too large', code: 'payload_too_large' });
  }
  let form: { languages?: unknown; budget?: unknown; without_content?: unknown };
  try {
    form = JSON.parse(text) as typeof form;
  } catch {
    return json(res, 400, { error: 'The body is not JSON', code: 'invalid_json' });
  }
  const body = {
    entity_type: 'product',
    // Every product, or those no generation has written yet.
    filter:
      form.without_content === false ? { changed_since: '1970-01-01T00:00:00Z' } : { without_content: true },
    languages: form.languages,
    budget: form.budget,
    ...(dryRun && { dry_run: true }),
  };
  try {
    const answer = await fetch(`${bulk.catalogueApi}/api/v2/rest/generation-batches`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bulk.apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(await answer.text());
  } catch (err) {
    json(res, 502, {
      error: `The catalogue API could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      code: 'catalogue_unreachable',
    });
  }
}

/**
 * The "Generate for the whole catalogue" form (a dry run first, then the start, both through
 * this server) and the progress panel of the eshop's newest batch, with the editor's token.
 */
function bulkSection(opts: DemoHostOptions, bulk: DemoBulkOptions): string {
  const a = (s: string) => escapeAttr(s);
  const languages = bulk.languages
    .map((l) => `<label><input type="checkbox" name="languages" value="${a(l)}" checked /> ${a(l)}</label>`)
    .join('\n    ');
  return `<section id="bulk" aria-labelledby="bulk-title">
<h2 id="bulk-title">Generate for the whole catalogue</h2>
<form id="bulk-form">
  <fieldset><legend>Languages</legend>
    ${languages}
  </fieldset>
  <label>Budget (credits) <input type="number" name="budget" min="1" step="1" value="100" required /></label>
  <label><input type="checkbox" name="without_content" checked /> Only products without generated content</label>
  <button type="submit">Estimate</button>
</form>
<p id="bulk-said" role="status" tabindex="-1"></p>
<button id="bulk-start" class="primary" type="button" hidden>Start generating</button>
<ccs-batch-progress api-base="${a(opts.apiBase)}" token="${a(opts.whiteLabelToken)}" ui-lang="${a(opts.uiLang ?? 'en')}"></ccs-batch-progress>
</section>
<script>
  {
    const form = document.getElementById('bulk-form');
    const said = document.getElementById('bulk-said');
    const start = document.getElementById('bulk-start');
    const panel = document.querySelector('ccs-batch-progress');
    const asked = () => ({
      languages: [...form.querySelectorAll('input[name=languages]:checked')].map((i) => i.value),
      budget: Number(form.elements.budget.value),
      without_content: form.elements.without_content.checked,
    });
    const send = async (path) => {
      const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(asked()) });
      return { ok: res.ok, status: res.status, body: await res.json().catch(() => ({})) };
    };
    const refused = (r) => (r.body.error || r.body.message || 'The request failed') + ' (' + (r.body.code || r.status) + ')';
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      start.hidden = true;
      said.textContent = 'Estimating…';
      const r = await send('/bulk/estimate');
      if (!r.ok) { said.textContent = refused(r); return; }
      const { items, estimate, within_budget } = r.body;
      said.textContent = items + ' texts to generate (each product in each language), about ' + estimate.credits + ' credits (' + estimate.per_item + ' each)' +
        (within_budget ? ': within the budget.' : ': over the budget; items past it would be left out.');
      start.hidden = items === 0;
    });
    start.addEventListener('click', async () => {
      start.hidden = true;
      said.textContent = 'Starting…';
      const r = await send('/bulk/start');
      if (!r.ok) { said.textContent = refused(r); said.focus(); return; }
      said.textContent = 'Bulk generation #' + r.body.id + ' started.';
      panel.setAttribute('batch-id', String(r.body.id));
      // The button is gone: focus goes to what it did, just above the progress.
      said.focus();
    });
  }
</script>`;
}

/**
 * What `npm start` lets webhook endpoints use although not public (WEBHOOK_ALLOW_PRIVATE, when
 * unset): a receiver on this machine, any port, as the README's webhook example registers.
 */
export const LOCAL_WEBHOOK_RECEIVERS = 'localhost:*,127.0.0.1:*';
