/** Rows beside the facts (answer claims, inbox requests) hold JSON that is checked when read, never trusted. */
import type { z } from "zod";

/** `body` parsed and checked against `schema`; undefined when it is not JSON of that shape. */
export function storedBody<T>(schema: z.ZodType<T>, body: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
