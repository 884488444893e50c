import { escapeText, htmlToText, safeHref, safeSrc, sanitizeHtml, videoEmbedUrl } from '@catalogue/content';

describe('sanitizeHtml', () => {
  it('when structural and text tags with safe attributes are given, then they are kept', () => {
    const html =
      '<h3 class="x">T</h3><p title="t">A <strong>b</strong> <em>c</em> <a href="https://shop.test/a">d</a></p>' +
      '<ul><li>1</li></ul><table><tbody><tr><td colspan="2">v</td></tr></tbody></table>' +
      '<img src="https://cdn.test/a.jpg" alt="a" /><a href="mailto:info@shop.test">mail</a>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('when scripts, styles, event handlers and unknown attributes are given, then they are removed', () => {
    expect(
      sanitizeHtml(
        '<p style="color:red" onclick="x()" id="i" data-x="1">a<script>b</script><style>p{}</style></p>',
      ),
    ).toBe('<p>a</p>');
  });

  it('when h1, h5 or h6 are given, then they are mapped into the h2–h4 outline', () => {
    expect(sanitizeHtml('<h1>a</h1><h5>b</h5><h6>c</h6>')).toBe('<h2>a</h2><h4>b</h4><h4>c</h4>');
  });

  it('when links or images use relative, protocol-relative or non-http URLs, then the URL is dropped', () => {
    expect(sanitizeHtml('<a href="/x">a</a><a href="//evil.test">b</a><a href="ftp://x.test">c</a>')).toBe(
      '<a>a</a><a>b</a><a>c</a>',
    );
    expect(sanitizeHtml('<img src="mailto:x@y.test" /><img src="data:image/png;base64,AAAA" />')).toBe('');
  });

  it('when an iframe is given in a value, then it is removed even from an allow-listed host', () => {
    expect(sanitizeHtml('<iframe src="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ"></iframe>x')).toBe(
      'x',
    );
  });

  it('when classes contain anything but plain names, then those tokens are dropped', () => {
    expect(sanitizeHtml('<p class="ok also-ok bad{} x:y">a</p>')).toBe('<p class="ok also-ok">a</p>');
  });
});

describe('escapeText', () => {
  it('when a text has markup characters and quotes, then all of them are escaped', () => {
    expect(escapeText(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;',
    );
  });
});

describe('htmlToText', () => {
  it('when html has blocks, entities and scripts, then the readable text is returned', () => {
    expect(htmlToText('<p>Tom &amp; Jerry</p><p>5 &lt; 6&nbsp;!</p><script>x</script>')).toBe(
      'Tom & Jerry 5 < 6 !',
    );
  });
});

describe('URLs', () => {
  it('when URLs are checked, then only absolute URLs with allowed schemes and no control characters pass', () => {
    expect(safeHref('https://shop.test/a?b=1')).toBe('https://shop.test/a?b=1');
    expect(safeHref(' mailto:a@b.test ')).toBe('mailto:a@b.test');
    expect(safeSrc('mailto:a@b.test')).toBeNull();
    for (const bad of [
      'javascript:alert(1)',
      'jav\tascript:x',
      'https://a.test/\nx',
      '/relative',
      '//x.test',
      'http://',
      42,
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
  });

  it.each([
    [
      'https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=10',
      'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    ],
    ['https://youtu.be/aqz-KE-bpKQ', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'],
    [
      'https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1',
      'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    ],
    ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
  ])('when the video link %s is given, then its embed URL is %s', (link, embed) => {
    expect(videoEmbedUrl(link)).toBe(embed);
  });

  it.each([
    'https://evil.test/embed/aqz-KE-bpKQ',
    'https://www.youtube.com/watch?v=<script>',
    'javascript:alert(1)',
    'https://vimeo.com/abc',
  ])('when %s is given as a video, then it is refused', (link) => {
    expect(videoEmbedUrl(link)).toBeNull();
  });
});
