/**
 * A turn of the event loop: work that runs long (a replay, a cached run, a live burst, the cache
 * writer) awaits it now and then, so that the transport flushes what it buffered and input is
 * read (a `$/cancel_request`, other sessions' requests) before it goes on.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
