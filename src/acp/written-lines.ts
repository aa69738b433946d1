/**
 * Lines already serialized (a replay cache row's): handed through the SDK's notification path
 * so that they are written in order with every other message, and written as they are.
 */
export class WrittenLines {
  constructor(readonly lines: string) {}
}

/** The text a message is written as: its JSON on one line, or the lines it carries. */
export function messageText(message: object): string {
  const params = "params" in message ? message.params : undefined;
  return params instanceof WrittenLines ? params.lines : `${JSON.stringify(message)}\n`;
}

/**
 * The messages a message stands for on a transport that carries objects (the in-memory one):
 * the lines it carries, parsed, or itself.
 */
export function expandWritten<T extends object>(message: T): T[] {
  const params = "params" in message ? message.params : undefined;
  if (!(params instanceof WrittenLines)) return [message];
  return params.lines
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}
