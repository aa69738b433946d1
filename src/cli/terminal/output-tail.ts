/**
 * A running command's output as its card's progress updates show it, turned into what is new
 * since the last one, a whole line at a time. Each update carries the output's latest window
 * (docs/tools.md: the last characters, fenced), so what is new is what follows the longest end of
 * the previous window that starts the next; when the two have nothing in common, all of the next
 * is new. Output that repeats itself exactly may be taken as already seen, and a line the command
 * had not ended when an update came is shown in two parts: this is progress on stderr, and the
 * card in the transcript keeps the whole recorded output. Pure.
 */

/** The text of a fenced block (a command's output, as Bash shows it while it runs); undefined for other text. */
export function unfenced(text: string): string | undefined {
  const fence = /^(`{3,})\n([\s\S]*)\1$/.exec(text);
  return fence ? (fence[2] as string) : undefined;
}

/**
 * What `now` adds to `before`, two windows on one growing output. A fenced window always ends
 * with a line break, its own or the fence's: when the output had not ended its line, the rest of
 * that line comes next, and is taken as new from where the line stopped.
 */
export function addedText(before: string, now: string): string {
  const seen = before.endsWith("\n") ? [before, before.slice(0, -1)] : [before];
  for (const shown of seen) if (now.startsWith(shown)) return now.slice(shown.length);
  for (let drop = 1; drop < before.length; drop++)
    for (const shown of seen) if (now.startsWith(shown.slice(drop))) return now.slice(shown.length - drop);
  return now;
}

export class OutputTail {
  #window = "";
  #partial = "";

  /** The whole lines `window` (the output's latest window) adds; a line not ended yet waits for its end. */
  next(window: string): string[] {
    const added = addedText(this.#window, window);
    this.#window = window;
    const lines = (this.#partial + added).split("\n");
    this.#partial = lines.pop() as string;
    return lines;
  }
}
