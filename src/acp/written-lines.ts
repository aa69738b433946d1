/**
 * Lines already serialized (a replay cache row's): handed through the SDK's notification path
 * so that they are written in order with every other message, and written as they are: as text,
 * or as the UTF-8 bytes a store handed over.
 */
export class WrittenLines {
  /** `lines`: whole lines, in order, each piece as text or as UTF-8 bytes. */
  constructor(readonly lines: readonly (string | Uint8Array)[]) {}
}

/** What a message is written as: its JSON on one line, or the lines it carries. */
export function messageText(message: object): string | readonly (string | Uint8Array)[] {
  const params = "params" in message ? message.params : undefined;
  return params instanceof WrittenLines ? params.lines : `${JSON.stringify(message)}\n`;
}

const decoder = new TextDecoder();

/**
 * The messages a message stands for on a transport that carries objects (the in-memory one):
 * the lines it carries, parsed, or itself.
 */
export function expandWritten<T extends object>(message: T): T[] {
  const params = "params" in message ? message.params : undefined;
  if (!(params instanceof WrittenLines)) return [message];
  return params.lines
    .map((piece) => (typeof piece === "string" ? piece : decoder.decode(piece)))
    .join("")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}
