import { escapeMarkup as e } from '../status-pages/html-escape';

export type BadgeColour = 'green' | 'yellow' | 'red' | 'blue' | 'grey';

const FILL: Record<BadgeColour, string> = { green: '#1f883d', yellow: '#9a6700', red: '#cf222e', blue: '#0969da', grey: '#6e7781' };

/** Width of a text in 11 px Verdana-like glyphs, estimated: SVG has no layout of its own. */
const textWidth = (text: string): number => Math.round([...text].reduce((w, c) => w + (/[ilj.,:'|!]/.test(c) ? 3.5 : /[mwMW%]/.test(c) ? 9.5 : 7), 0));

/**
 * A flat two-part badge ("label | value"), shields.io style. Screen readers read its name from
 * `role="img"`, `aria-label` and `<title>` ("status: up"); the drawn text is hidden from them so
 * it is not read twice. Colours are presentation attributes: no style, no script.
 */
export function renderBadge(label: string, value: string, colour: BadgeColour): string {
  const left = textWidth(label) + 12;
  const right = textWidth(value) + 12;
  const width = left + right;
  const name = e(`${label}: ${value}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${name}">
<title>${name}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#fff" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${FILL[colour]}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11" aria-hidden="true">
<text x="${left / 2}" y="15" fill="#010101" fill-opacity=".3">${e(label)}</text><text x="${left / 2}" y="14">${e(label)}</text>
<text x="${left + right / 2}" y="15" fill="#010101" fill-opacity=".3">${e(value)}</text><text x="${left + right / 2}" y="14">${e(value)}</text>
</g>
</svg>
`;
}
