/**
 * Hook text that reaches the model is framed as what it is: context from a named hook, not the
 * user and not the system. `<`, `>` and `&` inside are escaped, so a hook cannot close the
 * frame early and speak outside it. Each value is capped.
 */

export const CONTEXT_CAP = 10_000;

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, "&quot;");

/** `text` from the hook configured at `location`, framed for the model. */
export function frameContext(location: string, text: string): string {
  const body = text.length > CONTEXT_CAP ? `${text.slice(0, CONTEXT_CAP)}… [cut at ${CONTEXT_CAP} characters]` : text;
  return `<hook_context source="${escapeAttribute(location)}">\n${escapeText(body)}\n</hook_context>`;
}
