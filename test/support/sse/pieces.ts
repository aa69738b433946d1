/** Splitting text the way providers stream it: a few words per delta. */
export function pieces(text: string, size = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(""));
  return out;
}

/** A JSON text cut in two, as tool arguments arrive. */
export function halves(json: string): string[] {
  const mid = Math.ceil(json.length / 2);
  return json.length > 1 ? [json.slice(0, mid), json.slice(mid)] : [json];
}
