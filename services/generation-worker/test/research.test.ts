import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import {
  addressProblem,
  classifyAddress,
  fetchResearch,
  htmlBlocks,
  type ResearchOptions,
} from '../src/research';

const PUBLIC_IP = '93.184.215.14';
const DNS: Record<string, string[]> = {
  'shop.example': [PUBLIC_IP],
  'blog.example': [PUBLIC_IP, '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'intranet.example': ['10.0.0.7'],
  'mixed.example': [PUBLIC_IP, '192.168.1.10'],
  'link-local.example': ['fe80::1'],
  'mapped.example': ['::ffff:172.16.5.4'],
  'metadata.example': ['169.254.169.254'],
};
const lookup = jest.fn(async (host: string): Promise<string[]> => {
  const answer = DNS[host];
  if (answer === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
});

const opts = (overrides: Partial<ResearchOptions> = {}): ResearchOptions => ({
  timeoutMs: 2_000,
  maxBytes: 100_000,
  maxUrls: 5,
  allowLoopback: false,
  lookup,
  ...overrides,
});

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
const PAGE = `<!doctype html><html><head><title>Wallets</title><style>p{color:red}</style>
<script>var s = "<p>not text</p>";</script></head>
<body><nav><a href="/">Home</a> <a href="/faq">FAQ</a></nav>
<h1>Leather wallets &amp; cards</h1>
<p>Full-grain   leather.
   Hand stitched.</p>
<!-- <p>hidden comment</p> -->
<h3>How do I clean it?</h3><p>Use a damp cloth.</p>
<footer>© Shop</footer></body></html>`;

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => {
  nock.cleanAll();
  lookup.mockClear();
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore(); // node:http back for the next file of this jest worker (providers-fixtures.ts)
});

describe('fetchResearch', () => {
  it('fetches a public page and extracts its readable text, block by block', async () => {
    const scope = nock('https://shop.example').get('/wallets').reply(200, PAGE, HTML);
    const result = await fetchResearch(['https://shop.example/wallets'], opts());
    expect(scope.isDone()).toBe(true);
    expect(result).toEqual({
      pages: [
        {
          url: 'https://shop.example/wallets',
          text: 'Leather wallets & cards\nFull-grain leather. Hand stitched.\nHow do I clean it?\nUse a damp cloth.',
        },
      ],
      refused: [],
    });
    expect(lookup).toHaveBeenCalledWith('shop.example');
  });

  it('reads text/plain and honours the charset', async () => {
    nock('http://blog.example')
      .get('/notes.txt')
      .reply(200, Buffer.from('Kůň\n\nŽlutý  kůň', 'utf8'), { 'Content-Type': 'text/plain; charset=utf-8' });
    nock('http://blog.example').get('/latin.html').reply(200, Buffer.from('<p>caf\xe9</p>', 'latin1'), {
      'Content-Type': 'text/html; charset=iso-8859-1',
    });
    const result = await fetchResearch(
      ['http://blog.example/notes.txt', 'http://blog.example/latin.html'],
      opts(),
    );
    expect(result.pages).toEqual([
      { url: 'http://blog.example/notes.txt', text: 'Kůň\nŽlutý kůň' },
      { url: 'http://blog.example/latin.html', text: 'café' },
    ]);
  });

  it('refuses schemes other than http and https, invalid URLs and credentials', async () => {
    const result = await fetchResearch(
      [
        'ftp://shop.example/a',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'not a url',
        'https://u:p@shop.example/',
      ],
      opts(),
    );
    expect(result.pages).toEqual([]);
    expect(result.refused).toEqual([
      { url: 'ftp://shop.example/a', reason: 'scheme ftp not allowed' },
      { url: 'file:///etc/passwd', reason: 'scheme file not allowed' },
      { url: 'javascript:alert(1)', reason: 'scheme javascript not allowed' },
      { url: 'not a url', reason: 'invalid URL' },
      { url: 'https://u:p@shop.example/', reason: 'credentials in URL not allowed' },
    ]);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses host names that resolve to a private, link-local or mapped private address', async () => {
    // No interceptor: a request would fail with "Nock: Disallowed net connect" instead.
    const result = await fetchResearch(
      [
        'http://intranet.example/',
        'http://mixed.example/',
        'http://link-local.example/',
        'http://mapped.example/',
        'http://metadata.example/latest/meta-data/',
      ],
      opts(),
    );
    expect(result.pages).toEqual([]);
    expect(result.refused.map((r) => r.reason)).toEqual([
      'private address 10.0.0.7 refused',
      'private address 192.168.1.10 refused',
      'link-local address fe80::1 refused',
      'private address ::ffff:172.16.5.4 refused',
      'link-local address 169.254.169.254 refused',
    ]);
  });

  it('refuses IP literals in private ranges; loopback only when allowed', async () => {
    const urls = [
      'http://127.0.0.1:8080/page',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://10.1.2.3/',
      'http://0x7f.1/',
    ];
    const refused = await fetchResearch(urls, opts());
    expect(refused.pages).toEqual([]);
    expect(refused.refused.map((r) => r.reason)).toEqual([
      'loopback address 127.0.0.1 refused',
      'loopback address ::1 refused',
      'link-local address fe80::1 refused',
      'private address 10.1.2.3 refused',
      'loopback address 127.0.0.1 refused',
    ]);
    expect(lookup).not.toHaveBeenCalled();

    nock('http://127.0.0.1:8080')
      .get('/page')
      .reply(200, 'local test page', { 'Content-Type': 'text/plain' });
    const allowed = await fetchResearch(
      ['http://127.0.0.1:8080/page', 'http://10.1.2.3/'],
      opts({ allowLoopback: true }),
    );
    expect(allowed.pages).toEqual([{ url: 'http://127.0.0.1:8080/page', text: 'local test page' }]);
    expect(allowed.refused).toEqual([
      { url: 'http://10.1.2.3/', reason: 'private address 10.1.2.3 refused' },
    ]);
  });

  it('follows redirects by hand and checks every target', async () => {
    nock('https://shop.example')
      .get('/old')
      .reply(301, '', { Location: '/new' })
      .get('/new')
      .reply(200, '<p>Moved here.</p>', HTML)
      .get('/to-intranet')
      .reply(302, '', { Location: 'http://intranet.example/admin' })
      .get('/to-loopback')
      .reply(307, '', { Location: 'http://127.0.0.1/' })
      .get('/to-ftp')
      .reply(302, '', { Location: 'ftp://shop.example/file' })
      .get('/nowhere')
      .reply(302, '');
    const result = await fetchResearch(
      [
        'https://shop.example/old',
        'https://shop.example/to-intranet',
        'https://shop.example/to-loopback',
        'https://shop.example/to-ftp',
        'https://shop.example/nowhere',
      ],
      opts(),
    );
    expect(result.pages).toEqual([{ url: 'https://shop.example/old', text: 'Moved here.' }]);
    expect(result.refused).toEqual([
      { url: 'https://shop.example/to-intranet', reason: 'private address 10.0.0.7 refused' },
      { url: 'https://shop.example/to-loopback', reason: 'loopback address 127.0.0.1 refused' },
      { url: 'https://shop.example/to-ftp', reason: 'scheme ftp not allowed' },
      { url: 'https://shop.example/nowhere', reason: 'HTTP 302 without a location' },
    ]);
  });

  it('follows at most three redirects', async () => {
    const scope = nock('https://shop.example');
    for (let i = 0; i < 4; i++) scope.get(`/r${i}`).reply(302, '', { Location: `/r${i + 1}` });
    scope.get('/r4').reply(200, 'too far', { 'Content-Type': 'text/plain' });
    const result = await fetchResearch(['https://shop.example/r0'], opts());
    expect(result.refused).toEqual([{ url: 'https://shop.example/r0', reason: 'more than 3 redirects' }]);

    nock('https://shop.example')
      .get('/s0')
      .reply(302, '', { Location: '/s1' })
      .get('/s1')
      .reply(302, '', { Location: '/s2' })
      .get('/s2')
      .reply(302, '', { Location: '/s3' })
      .get('/s3')
      .reply(200, 'three hops', { 'Content-Type': 'text/plain' });
    const ok = await fetchResearch(['https://shop.example/s0'], opts());
    expect(ok.pages).toEqual([{ url: 'https://shop.example/s0', text: 'three hops' }]);
  });

  it('reads at most maxBytes of a body', async () => {
    const line = `${'x'.repeat(99)}\n`;
    nock('https://shop.example')
      .get('/big')
      .reply(200, line.repeat(10_000), { 'Content-Type': 'text/plain' });
    const result = await fetchResearch(['https://shop.example/big'], opts({ maxBytes: 1_000 }));
    const text = result.pages[0]?.text ?? '';
    expect(text.split('\n')).toHaveLength(10);
    expect(text.replace(/\n/g, '').length).toBe(990);
  });

  it('caps the text kept per page', async () => {
    nock('https://shop.example')
      .get('/long')
      .reply(200, 'word '.repeat(5_000), { 'Content-Type': 'text/plain' });
    const result = await fetchResearch(['https://shop.example/long'], opts({ maxTextChars: 100 }));
    expect(result.pages[0]?.text.length).toBeLessThanOrEqual(100);
  });

  it('gives up on a page after timeoutMs', async () => {
    nock('https://shop.example')
      .get('/slow')
      .delay(20_000)
      .reply(200, 'late', { 'Content-Type': 'text/plain' });
    nock('https://shop.example').get('/fast').reply(200, 'quick', { 'Content-Type': 'text/plain' });
    const started = Date.now();
    const result = await fetchResearch(
      ['https://shop.example/slow', 'https://shop.example/fast'],
      opts({ timeoutMs: 100 }),
    );
    expect(Date.now() - started).toBeLessThan(10_000); // the slow page would take 20 s
    expect(result.pages).toEqual([{ url: 'https://shop.example/fast', text: 'quick' }]);
    expect(result.refused).toEqual([{ url: 'https://shop.example/slow', reason: 'timed out after 100 ms' }]);
  });

  it('refuses content types other than text/html and text/plain', async () => {
    nock('https://shop.example')
      .get('/manual.pdf')
      .reply(200, '%PDF-1.7', { 'Content-Type': 'application/pdf' })
      .get('/data.json')
      .reply(200, '{"a":1}', { 'Content-Type': 'application/json' })
      .get('/unknown')
      .reply(200, 'who knows');
    const result = await fetchResearch(
      ['https://shop.example/manual.pdf', 'https://shop.example/data.json', 'https://shop.example/unknown'],
      opts(),
    );
    expect(result.pages).toEqual([]);
    expect(result.refused.map((r) => r.reason)).toEqual([
      'content type application/pdf not allowed',
      'content type application/json not allowed',
      'content type missing not allowed',
    ]);
  });

  it('reports HTTP errors, unknown hosts and empty pages as refused', async () => {
    nock('https://shop.example')
      .get('/gone')
      .reply(404, 'Not found', { 'Content-Type': 'text/html' })
      .get('/broken')
      .reply(503, 'busy', { 'Content-Type': 'text/plain' })
      .get('/empty')
      .reply(200, '<script>only()</script>', HTML);
    const result = await fetchResearch(
      [
        'https://shop.example/gone',
        'https://shop.example/broken',
        'https://nowhere.example/',
        'https://shop.example/empty',
      ],
      opts(),
    );
    expect(result.refused).toEqual([
      { url: 'https://shop.example/gone', reason: 'HTTP 404' },
      { url: 'https://shop.example/broken', reason: 'HTTP 503' },
      { url: 'https://nowhere.example/', reason: 'host nowhere.example not found' },
      { url: 'https://shop.example/empty', reason: 'no readable text' },
    ]);
  });

  it('fetches at most maxUrls distinct URLs, in parallel, keeping their order', async () => {
    let running = 0;
    let peak = 0;
    const scope = nock('https://shop.example');
    // Each page takes a while to answer, so fetches in parallel overlap and are counted together.
    for (let i = 0; i < 4; i++) {
      scope
        .get(`/p${i}`)
        .delay(30)
        .reply(() => {
          running += 1;
          peak = Math.max(peak, running);
          setTimeout(() => (running -= 1), 20);
          return [200, `page ${i}`, { 'Content-Type': 'text/plain' }];
        });
    }
    const urls = ['/p0', '/p1', '/p0', '/p2', '/p3', '/p4', '/p5'].map((p) => `https://shop.example${p}`);
    const result = await fetchResearch(urls, opts({ maxUrls: 4, concurrency: 2 }));
    expect(result.pages.map((p) => p.text)).toEqual(['page 0', 'page 1', 'page 2', 'page 3']);
    expect(result.refused).toEqual([
      { url: 'https://shop.example/p4', reason: 'over the limit of 4 URLs' },
      { url: 'https://shop.example/p5', reason: 'over the limit of 4 URLs' },
    ]);
    expect(peak).toBeLessThanOrEqual(2);
  });
});

describe('fetchResearch against a real socket (loopback allowed)', () => {
  let server: Server;
  let base = '';
  let streamClosed: Promise<number>;

  beforeAll(async () => {
    let closed: (bytes: number) => void = () => undefined;
    streamClosed = new Promise((resolve) => (closed = resolve));
    server = createServer((req, res) => {
      if (req.url === '/endless') {
        // Writes forever until the client goes away.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        let sent = 0;
        const chunk = `${'y'.repeat(1023)}\n`;
        const timer = setInterval(() => {
          res.write(chunk);
          sent += chunk.length;
        }, 1);
        res.on('close', () => {
          clearInterval(timer);
          closed(sent);
        });
        return;
      }
      if (req.url === '/to-private') {
        res.writeHead(302, { Location: 'http://10.255.255.1/secret' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>local</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stops downloading at maxBytes and closes the connection', async () => {
    const result = await fetchResearch([`${base}/endless`], opts({ allowLoopback: true, maxBytes: 4_096 }));
    expect(result.pages[0]?.text.replace(/\n/g, '').length).toBe(4_096 - 4);
    const sent = await streamClosed;
    expect(sent).toBeLessThan(10_000_000);
  });

  it('does not let fetch follow a redirect to a private address', async () => {
    const result = await fetchResearch(
      [`${base}/to-private`, `${base}/ok`],
      opts({ allowLoopback: true, timeoutMs: 1_000 }),
    );
    expect(result.pages).toEqual([{ url: `${base}/ok`, text: 'local' }]);
    expect(result.refused).toEqual([
      { url: `${base}/to-private`, reason: 'private address 10.255.255.1 refused' },
    ]);
  });
});

describe('addresses', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['2606:4700::1111', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (address, label) => {
    expect(classifyAddress(address)).toBe(label);
  });

  it('allows loopback only when asked to', () => {
    expect(addressProblem('127.0.0.1', false)).toBe('loopback address 127.0.0.1');
    expect(addressProblem('127.0.0.1', true)).toBeNull();
    expect(addressProblem('::1', true)).toBeNull();
    expect(addressProblem('10.0.0.1', true)).toBe('private address 10.0.0.1');
    expect(addressProblem('8.8.8.8', false)).toBeNull();
  });
});

describe('htmlBlocks', () => {
  it('drops scripts, styles, comments and navigation, also unclosed ones', () => {
    expect(htmlBlocks('<p>a</p><script>x = "<p>b</p>"</script><p>c</p><!-- d --><style>e')).toEqual([
      'a',
      'c',
    ]);
    expect(htmlBlocks('<div>one<br>two</div><ul><li>three</li></ul>')).toEqual(['one', 'two', 'three']);
  });
});
