/**
 * Pages of rows read from a server one query each, each page asked for as soon as the one before
 * has arrived, before that one is handed on: the server reads the next rows while the caller
 * writes these. Two pages are in memory at most. A caller that stops early leaves the page it
 * asked for unread (its failure, if any, is dropped: nothing reads it).
 */
export async function* prefetchedPages<Row extends { fromSeq: number }>(
  read: (fromSeq: number) => Promise<Row[]>,
  pageRows: number,
  fromSeq: number,
): AsyncGenerator<Row[]> {
  let next: Promise<Row[]> | undefined = read(fromSeq);
  try {
    while (next) {
      const page: Row[] = await next;
      const last = page[page.length - 1];
      next = page.length === pageRows && last ? read(last.fromSeq + 1) : undefined;
      if (page.length > 0) yield page;
    }
  } finally {
    next?.catch(() => undefined);
  }
}
