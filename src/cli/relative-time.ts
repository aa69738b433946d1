/**
 * When something happened, as a person reads it in a listing: "just now", "5 min ago",
 * "3 h ago", "yesterday", "4 days ago", then the date. Drawn from a recorded time and the clock
 * at the moment the listing is printed; it is wording, not a fact.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(at: string, now: number = Date.now()): string {
  const then = Date.parse(at);
  if (Number.isNaN(then)) return at;
  const ago = now - then;
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return "yesterday";
  if (ago < 30 * DAY) return `${Math.floor(ago / DAY)} days ago`;
  return at.slice(0, 10);
}
