/**
 * Pages of rows read from a server one query each, each page asked for as soon as the one before
 * has arrived, before that one is handed on: the server reads the next rows while the caller
 * writes these. Two pages are in memory at most. A page that fails is the caller's error when the
 * caller comes to it, never an unhandled rejection meanwhile; a caller that stops early leaves
 * the page it asked for unread, and its failure with it.
 */
export async function* prefetchedPages<Row extends { fromSeq: number }>(
  read: (fromSeq: number) => Promise<Row[]>,
  pageRows: number,
  fromSeq: number,
): AsyncGenerator<Row[]> {
  let next: Promise<Row[]> | undefined = asked(read(fromSeq));
  while (next) {
    const page: Row[] = await next;
    const last = page[page.length - 1];
    next = page.length === pageRows && last ? asked(read(last.fromSeq + 1)) : undefined;
    if (page.length > 0) yield page;
  }
}

/** `page`, its failure handled until someone awaits it (the await still meets the failure). */
function asked<T>(page: Promise<T>): Promise<T> {
  page.catch(() => undefined);
  return page;
}
