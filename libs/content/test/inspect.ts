/**
 * Parses rendered HTML the way a browser would read its tags and attributes (entities decoded),
 * so that security assertions look at real attributes, not at escaped text that merely looks
 * like one.
 */
import { sanitize } from '../src/sanitize-html';

export interface OpenTag {
  name: string;
  attribs: Record<string, string>;
}

export function openTags(html: string): OpenTag[] {
  const tags: OpenTag[] = [];
  sanitize(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    nonTextTags: [],
    onOpenTag: (name, attribs) => tags.push({ name: name.toLowerCase(), attribs: { ...attribs } }),
  });
  return tags;
}

const VIDEO_EMBED =
  /^https:\/\/(www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]+|player\.vimeo\.com\/video\/\d+)$/;
const ALLOWED_TAGS = new Set([
  ...[
    'section',
    'div',
    'nav',
    'h2',
    'h3',
    'h4',
    'p',
    'span',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
  ],
  ...['br', 'hr', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'figure', 'figcaption', 'cite', 'a', 'img'],
  ...['details', 'summary'],
  ...['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'iframe'],
]);
const ALLOWED_ATTRIBUTES = new Set([
  ...['class', 'title', 'id', 'data-widget-id', 'href', 'src', 'alt', 'loading'],
  ...['allowfullscreen', 'referrerpolicy', 'colspan', 'rowspan', 'lang'],
]);

/** Everything in `html` that could run script or load from an unsafe URL, as readable findings. */
export function dangers(html: string): string[] {
  const found: string[] = [];
  for (const { name, attribs } of openTags(html)) {
    if (!ALLOWED_TAGS.has(name)) found.push(`tag <${name}>`);
    for (const [attribute, value] of Object.entries(attribs)) {
      const lower = attribute.toLowerCase();
      if (!ALLOWED_ATTRIBUTES.has(lower)) found.push(`attribute ${lower} on <${name}>`);
      if (lower === 'href' && !/^(https?:\/\/|mailto:|tel:|#[a-z0-9-]+$)/i.test(value))
        found.push(`href ${value}`);
      if (lower === 'src' && name === 'iframe' && !VIDEO_EMBED.test(value)) found.push(`iframe src ${value}`);
      if (lower === 'src' && name !== 'iframe' && !/^https?:\/\//i.test(value)) found.push(`src ${value}`);
      // eslint-disable-next-line no-control-regex -- control characters inside a URL are the finding
      if ((lower === 'href' || lower === 'src') && /[\s\u0000-\u001f]/.test(value))
        found.push(`url ${value}`);
      if (lower === 'class' && !/^[A-Za-z0-9_ -]*$/.test(value)) found.push(`class ${value}`);
      // Only the renderer writes `lang`, with a language code (a fallback's marker).
      if (lower === 'lang' && !/^[a-z]{2,3}$/.test(value)) found.push(`lang ${value}`);
    }
  }
  if (/<script/i.test(html)) found.push('<script');
  return found;
}

/** For marketplace output: any attribute at all, or a tag outside the marketplace list. */
export function marketplaceDangers(html: string): string[] {
  const allowed = new Set([
    'h2',
    'h3',
    'h4',
    'p',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ]);
  ['strong', 'em', 'br'].forEach((t) => allowed.add(t));
  const found = dangers(html);
  for (const { name, attribs } of openTags(html)) {
    if (!allowed.has(name)) found.push(`marketplace tag <${name}>`);
    if (Object.keys(attribs).length > 0) found.push(`marketplace attributes on <${name}>`);
  }
  return found;
}

/** For rich-snippet HTML: exactly one JSON-LD script whose body holds no markup character. */
export function snippetDangers(html: string): string[] {
  if (html === '') return [];
  const match = /^<script type="application\/ld\+json">([^<>&]*)<\/script>$/.exec(html);
  if (!match) return [`snippet ${html}`];
  try {
    JSON.parse(match[1] ?? '');
  } catch {
    return ['snippet body is not JSON'];
  }
  return [];
}

/** OWASP XSS filter-evasion style payloads, for every test that proves an input path safe. */
export const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//xss.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x31&#x29>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href=" &#14; javascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.test/">x</a>',
  '<a href="https://ok.test/" onclick="alert(1)">x</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe src=javascript:alert(1)>',
  '<iframe src="https://evil.test/embed/abcdefgh"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="width: expression(alert(1))">x</p>',
  '<style>@import "javascript:alert(1)";</style>',
  '<body onload=alert(1)>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '" onmouseover="alert(1)',
  "' onmouseover='alert(1)",
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '</script><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<video><source onerror=alert(1)></video>',
  'javascript:alert(1)',
];
