/**
 * What <ccs-editor> needs from the host page beyond its attributes: the content stylesheet as a
 * constructable stylesheet (a strict `style-src` blocks a `<link>` to the API's origin, never a
 * sheet the script builds), and a report of what the page's Content-Security-Policy blocks.
 */

const sheets = new Map<string, Promise<CSSStyleSheet>>();
/** The content sheets built so far (one replaces another when the API base changes). */
const built = new WeakSet<CSSStyleSheet>();

/** The stylesheet at `url` (fetched with CORS, built once per URL and page). */
function contentSheet(url: string): Promise<CSSStyleSheet> {
  let sheet = sheets.get(url);
  if (!sheet) {
    sheet = fetch(url, { credentials: 'omit' })
      .then((res) => {
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        return res.text();
      })
      .then((text) => {
        const made = new CSSStyleSheet();
        built.add(made);
        return made.replace(text);
      });
    sheet.catch(() => sheets.delete(url)); // tried again on the next render
    sheets.set(url, sheet);
  }
  return sheet;
}

/**
 * Adopts the content stylesheet at `url` into `root`, before the editor's own sheets (the
 * editor's chrome wins where both style the same thing). Idempotent; a previous content sheet
 * (another API base) is replaced.
 */
export async function adoptContentSheet(root: ShadowRoot, url: string): Promise<void> {
  const sheet = await contentSheet(url);
  if (root.adoptedStyleSheets[0] === sheet) return;
  root.adoptedStyleSheets = [sheet, ...root.adoptedStyleSheets.filter((s) => !built.has(s))];
}

export interface CspViolation {
  directive: string;
  blocked: string;
}

/** The origin of a URL (a report may carry only the origin), or '' when it is none. */
function originOfUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/**
 * Whether a blocked frame is one the editor shows (a video's player in the preview): an iframe
 * under `root` whose source has the blocked URL's origin.
 */
function framedIn(root: ParentNode | null | undefined, blocked: string): boolean {
  const origin = originOfUrl(blocked);
  if (!root || !origin) return false;
  return [...root.querySelectorAll('iframe')].some((f) => originOfUrl(f.src) === origin);
}

/**
 * Calls `report` once per directive and blocked resource when the page's CSP blocks something
 * of the editor's: a request to the API's origin (`blocked` is its URL), anything the editor's
 * own script did (`sourceFile` under the API's origin), or a frame of its content preview (a
 * video's player, under `root`). Returns the unsubscribe.
 */
export function watchCsp(
  apiOrigin: () => string,
  report: (v: CspViolation) => void,
  root?: () => ParentNode | null | undefined,
): () => void {
  const seen = new Set<string>();
  const listener = (e: SecurityPolicyViolationEvent) => {
    const origin = apiOrigin();
    const directive0 = e.effectiveDirective || e.violatedDirective;
    const ours =
      e.blockedURI.startsWith(origin) ||
      (e.sourceFile ?? '').startsWith(origin) ||
      (/^(frame|child)-src/.test(directive0) && framedIn(root?.(), e.blockedURI));
    if (!ours) return;
    const directive = e.effectiveDirective || e.violatedDirective;
    const key = `${directive} ${e.blockedURI}`;
    if (seen.has(key)) return;
    seen.add(key);
    report({ directive, blocked: e.blockedURI });
  };
  document.addEventListener('securitypolicyviolation', listener);
  return () => document.removeEventListener('securitypolicyviolation', listener);
}
