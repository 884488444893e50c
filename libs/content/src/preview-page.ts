/**
 * What a design looks like before anyone fills it, as files a browser can open on its own: a
 * thumbnail drawn from the design's widget layout (SVG, one block per widget, shaped by its
 * type) and a whole HTML page of the design filled with its sample content. Pure: the caller
 * passes the design's name, its widget types in order and its stored preview HTML.
 */

const W = 320;
const PAD = 12;
const INNER = W - 2 * PAD;

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Shape = (y: number) => { svg: string; height: number };

const rect = (x: number, y: number, w: number, h: number, fill: string, r = 2): string =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}"/>`;

const INK = '#9ca3af';
const SOFT = '#d1d5db';
const MEDIA = '#bfdbfe';
const ACCENT = '#1d4ed8';

/** Text lines: a heading bar, then `n` lines of body text. */
const lines = (x: number, y: number, w: number, n: number): string =>
  rect(x, y, w * 0.6, 8, INK) +
  Array.from({ length: n }, (_, i) => rect(x, y + 14 + i * 9, i === n - 1 ? w * 0.7 : w, 5, SOFT)).join('');

const SHAPES: Record<string, Shape> = {
  section: (y) => ({ svg: lines(PAD, y, INNER, 3), height: 46 }),
  image_text: (y) => ({
    svg: rect(PAD, y, INNER * 0.4, 52, MEDIA) + lines(PAD + INNER * 0.45, y + 4, INNER * 0.55, 3),
    height: 56,
  }),
  benefit: (y) => {
    const col = (INNER - 16) / 3;
    const svg = [0, 1, 2]
      .map((i) => {
        const x = PAD + i * (col + 8);
        return (
          `<circle cx="${x + col / 2}" cy="${y + 9}" r="8" fill="${MEDIA}"/>` +
          rect(x, y + 22, col, 6, INK) +
          rect(x, y + 32, col, 4, SOFT) +
          rect(x, y + 39, col * 0.8, 4, SOFT)
        );
      })
      .join('');
    return { svg, height: 48 };
  },
  gallery: (y) => {
    const cell = (INNER - 12) / 4;
    return {
      svg: [0, 1, 2, 3].map((i) => rect(PAD + i * (cell + 4), y, cell, cell * 0.75, MEDIA)).join(''),
      height: cell * 0.75 + 4,
    };
  },
  faq: (y) => ({
    svg: [0, 1, 2].map((i) => rect(PAD, y + i * 12, INNER, 8, i === 0 ? INK : SOFT)).join(''),
    height: 38,
  }),
  testimonial: (y) => ({
    svg:
      rect(PAD + 20, y, INNER - 40, 5, SOFT) +
      rect(PAD + 40, y + 9, INNER - 80, 5, SOFT) +
      rect(PAD + INNER / 2 - 30, y + 20, 60, 6, INK),
    height: 30,
  }),
  video: (y) => ({
    svg:
      rect(PAD, y, INNER, 70, '#1f2937') + `<path d="M${W / 2 - 8} ${y + 25} l18 10 l-18 10z" fill="#fff"/>`,
    height: 74,
  }),
  divider: (y) => ({ svg: rect(PAD, y + 4, INNER, 1.5, SOFT, 0), height: 10 }),
  parameters: (y) => ({
    svg: [0, 1, 2, 3]
      .map(
        (i) =>
          rect(PAD, y + i * 9, INNER * 0.35, 5, INK) +
          rect(PAD + INNER * 0.4, y + i * 9, INNER * 0.5, 5, SOFT),
      )
      .join(''),
    height: 38,
  }),
  cta: (y) => ({ svg: rect(PAD, y, INNER * 0.6, 7, INK) + rect(PAD, y + 14, 90, 18, ACCENT, 4), height: 36 }),
  comparison: (y) => ({
    svg: [0, 1, 2, 3]
      .map((i) => rect(PAD, y + i * 10, INNER, 7, i === 0 ? INK : i % 2 ? SOFT : '#e5e7eb', 0))
      .join(''),
    height: 42,
  }),
};

const fallback: Shape = (y) => ({ svg: rect(PAD, y, INNER, 24, SOFT), height: 28 });

/** A 320 px wide SVG thumbnail of a design: its widgets top to bottom, each drawn by its type. */
export function designThumbnailSvg(name: string, widgetTypes: readonly string[]): string {
  let y = PAD;
  const parts: string[] = [];
  for (const type of widgetTypes) {
    const { svg, height } = (SHAPES[type] ?? fallback)(y);
    parts.push(svg);
    y += height + 10;
  }
  const height = Math.max(y + PAD - 10, 60);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(name)}">` +
    `<title>${esc(name)}</title>${rect(0, 0, W, height, '#ffffff', 0)}${parts.join('')}</svg>`
  );
}

/** A whole page showing the design filled with its sample content, styled like the shop's content. */
export function designPreviewPage(name: string, previewHtml: string, stylesheetUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${esc(name)}</title>
<link rel="stylesheet" href="${esc(stylesheetUrl)}" />
<style>body { max-width: 48rem; margin: 2rem auto; padding: 0 1rem; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<main class="ccs-content">
${previewHtml}
</main>
</body>
</html>
`;
}
