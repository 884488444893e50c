// The demo host page asks the editor for the visitor's language, as an admin that knows its
// user's language does: `?ui-lang=` first, then the language the page was started with, then
// the browser's (Accept-Language), English last; whatever is asked is written escaped.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { demoHostHandler, type DemoHostOptions } from '../src/demo-host';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** The demo page's server with `opts`; resolves to its base URL. */
async function demo(opts: Partial<DemoHostOptions> = {}): Promise<string> {
  const server = createServer(
    demoHostHandler({ port: 0, apiBase: 'http://wl.test', whiteLabelToken: 'wl_demo', ...opts }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The `ui-lang` of the page's editor and of its progress panel, and the page's Vary header. */
async function uiLangs(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const page = await res.text();
  return {
    status: res.status,
    vary: res.headers.get('vary'),
    langs: [...page.matchAll(/<ccs-(?:editor|batch-progress)[^>]*\sui-lang="([^"]*)"/g)].map((m) => m[1]),
  };
}

describe('the demo host page’s UI language', () => {
  test('when the browser prefers Slovak, then the editor is asked for the browser’s languages', async () => {
    const url = await demo();
    expect(await uiLangs(url, { 'Accept-Language': 'sk-SK,sk;q=0.9,en;q=0.8' })).toEqual({
      status: 200,
      vary: 'Accept-Language',
      langs: ['sk-SK,sk;q=0.9,en;q=0.8'],
    });
    expect((await uiLangs(url, { 'Accept-Language': '' })).langs).toEqual(['en']);
  });

  test('when the address names ?ui-lang=, then it wins over the browser and the configured language', async () => {
    expect((await uiLangs(`${await demo()}/?ui-lang=de`, { 'Accept-Language': 'sk' })).langs).toEqual(['de']);
    const configured = await demo({ uiLang: 'cs' });
    expect((await uiLangs(configured, { 'Accept-Language': 'sk' })).langs).toEqual(['cs']);
    expect((await uiLangs(`${configured}/?ui-lang=pl`)).langs).toEqual(['pl']);
  });

  test('when the asked language would break the attribute or is overlong, then it is escaped or English', async () => {
    const url = await demo({
      bulk: { catalogueApi: 'http://catalogue.test', apiToken: 'api_demo', languages: ['cs'] },
    });
    const hostile = await uiLangs(`${url}/?ui-lang=${encodeURIComponent('sk"><script>alert(1)</script>')}`);
    expect(hostile.langs).toEqual([
      'sk&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
      'sk&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    ]);
    expect((await uiLangs(url, { 'Accept-Language': `sk,${'x'.repeat(300)}` })).langs).toEqual(['en', 'en']);
  });

  test('when the request-target is no URL, then the page still answers, in English', async () => {
    const url = new URL(await demo());
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.end('GET http://[::1/?ui-lang=sk HTTP/1.1\r\nHost: demo\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('ui-lang="en"');
  });
});
