/**
 * Readable text from HTML: scripts, styles and other non-content elements are dropped, block
 * elements become line breaks, headings and list items keep a markdown marker, links keep their
 * target, entities are decoded and whitespace is collapsed. Good enough for a model to read a
 * page; not a layout engine.
 */
const DROP = ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "head"];
const BLOCK =
  /<\/?(p|div|section|article|main|aside|header|footer|nav|ul|ol|table|thead|tbody|tfoot|tr|blockquote|pre|form|fieldset|figure|figcaption|dl|dt|dd|address|details|summary|hr)\b[^>]*>/gi;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  bull: "•",
  middot: "·",
  laquo: "«",
  raquo: "»",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, "");

export function htmlToText(html: string): string {
  let text = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of DROP) text = text.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?<\\/${tag}\\s*>`, "gi"), "");
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  text = text
    .replace(
      /<(h[1-6])\b[^>]*>([\s\S]*?)<\/\1\s*>/gi,
      (_m, tag: string, body: string) => `\n\n${"#".repeat(Number(tag[1]))} ${stripTags(body).trim()}\n\n`,
    )
    .replace(
      /<a\b[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_m, d: string, s: string, u: string, body: string) => {
        const label = stripTags(body).trim();
        const href = d ?? s ?? u ?? "";
        return label && href && !href.startsWith("#") && !href.startsWith("javascript:")
          ? `[${label}](${href})`
          : label;
      },
    )
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(td|th)\s*>/gi, "\t")
    .replace(BLOCK, "\n\n");
  text = decodeEntities(stripTags(text))
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const heading = title ? decodeEntities(stripTags(title)).trim() : "";
  return heading && !text.startsWith(`# ${heading}`) ? `Title: ${heading}\n\n${text}` : text;
}
