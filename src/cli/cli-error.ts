/**
 * The command line's errors, in the user's words. Whatever failed (a bad argument, the journal,
 * the engine's typed protocol errors), the user reads what went wrong and what to do; JSON-RPC
 * phrases ("Internal error", "Authentication required") and stacks never reach them. Under
 * --json the same error is one object on stdout: `{"error": {code, message, data?}, sessionId?}`.
 */
import { RequestError } from "@agentclientprotocol/sdk";
import { EngineError } from "../core/errors.ts";
import { JournalError } from "../journal/errors.ts";
import { defined } from "../shared/defined.ts";
import { visible } from "../view/visible-text.ts";

/** Exit code of a usage error: a bad argument, the prompt or a folder missing. */
export const USAGE_EXIT = 2;

export type ErrorBody = { code: string; message: string; data?: Record<string, unknown> };

/** An error the command line raises itself, already in the user's words. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exit = 1,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export const usageError = (message: string) => new CliError("usage", message, USAGE_EXIT);

/** Where the journal is, for messages that name it. */
export type ErrorContext = { journal?: string };

const RPC_PREFIX =
  /^(Internal error|Authentication required|Invalid params|Invalid request|Resource not found|Parse error|Request cancelled)(: |$)/;

/** The message without the JSON-RPC phrase the SDK puts before it. */
const plain = (message: string) => message.replace(RPC_PREFIX, "");

const FIND_SESSIONS = "`verbatim sessions` lists the recorded sessions.";

/** What went wrong, in words, and the exit code it means. */
export function describeError(error: unknown, context: ErrorContext = {}): { body: ErrorBody; exit: number } {
  if (error instanceof CliError) return { body: body(error.code, error.message, error.data), exit: error.exit };
  if (error instanceof JournalError)
    return { body: journalBody(error.code, error.message, error.details, context), exit: 1 };
  if (error instanceof EngineError) return { body: engineBody(error.code, error.message, error.details), exit: 1 };
  if (error instanceof RequestError) return { body: requestBody(error, context), exit: 1 };
  const errno = (error as { code?: unknown }).code;
  if (typeof errno === "string" && /^E[A-Z]+$/.test(errno)) {
    const path = (error as { path?: unknown }).path;
    const where = typeof path === "string" ? path : (context.journal ?? "a file");
    return {
      body: body(
        "file_error",
        `cannot use ${where} (${errno}: ${fsWords(errno)})`,
        typeof path === "string" ? { path } : undefined,
      ),
      exit: 1,
    };
  }
  if (error instanceof Error && error.name === "SQLiteError") {
    const code = String((error as { code?: unknown }).code ?? "");
    if (/^SQLITE_(NOTADB|CORRUPT)/.test(code) || /not a database|malformed/.test(error.message)) {
      return { body: journalBody("corrupt_database", error.message, {}, context), exit: 1 };
    }
    return {
      body: body(
        "journal_unavailable",
        `the journal${context.journal ? ` at ${context.journal}` : ""} could not be used: ${error.message}`,
      ),
      exit: 1,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    body: body("internal", `verbatim failed unexpectedly: ${message}. Please report this, with the command you ran.`),
    exit: 1,
  };
}

function requestBody(error: RequestError, context: ErrorContext): ErrorBody {
  const data = (typeof error.data === "object" && error.data !== null ? error.data : {}) as Record<string, unknown>;
  const reason = typeof data.reason === "string" ? data.reason : undefined;
  const message = plain(error.message);
  if (reason === "turn_failed") return body("turn_failed", typeof data.error === "string" ? data.error : message);
  if (reason && isJournalCode(reason)) {
    const { reason: _reason, ...details } = data;
    return journalBody(reason, message, details, context);
  }
  if (reason && isEngineCode(reason)) return engineBody(reason, message, {});
  if (error.code === -32002 && typeof data.sessionId === "string") return notFound(data.sessionId, context);
  if (error.code === -32603 && typeof data.details === "string") {
    return body(
      "internal",
      `verbatim failed unexpectedly: ${data.details}. Please report this, with the command you ran.`,
    );
  }
  return body("failed", message || "the request failed", reason ? { reason } : undefined);
}

const JOURNAL_CODES = [
  "not_found",
  "newer_record",
  "corrupt_record",
  "missing_record",
  "busy",
  "stale_write",
  "corrupt_database",
  "newer_database",
  "unreachable",
  "empty_database",
  "not_a_journal",
  "read_only",
  "write_failed",
  "exists",
  "inbox_full",
] as const satisfies readonly JournalError["code"][];
const isJournalCode = (code: string): code is JournalError["code"] =>
  (JOURNAL_CODES as readonly string[]).includes(code);
const ENGINE_CODES = [
  "turn_running",
  "queue_full",
  "no_provider",
  "invalid_config",
  "unsupported_content",
  "closed",
  "not_forkable",
  "cwd_missing",
] as const satisfies readonly EngineError["code"][];
const isEngineCode = (code: string): code is EngineError["code"] => (ENGINE_CODES as readonly string[]).includes(code);

function journalBody(
  code: JournalError["code"],
  message: string,
  details: Record<string, unknown>,
  context: ErrorContext,
): ErrorBody {
  const sessionId = typeof details.sessionId === "string" ? details.sessionId : undefined;
  const file = context.journal ? ` (${context.journal})` : "";
  switch (code) {
    case "not_found":
      return sessionId ? notFound(sessionId, context) : body("session_not_found", message);
    case "exists":
      return body("session_exists", message, sessionId ? { sessionId } : undefined);
    case "busy":
    case "stale_write":
    case "inbox_full":
      return body(
        "session_busy",
        `${message}. Wait for the other process to finish with it, or end that process.`,
        sessionId ? { sessionId } : undefined,
      );
    case "newer_database":
    case "newer_record":
      return body(
        "journal_newer",
        `${message}${file}. It was written by a newer verbatim: upgrade verbatim to read it.`,
      );
    case "unreachable":
      return body(
        "journal_unavailable",
        `${message}. Check VERBATIM_JOURNAL (or journal.url in the user config) and that the database server is running.`,
      );
    case "read_only":
    case "write_failed":
      // The store's message names the file and what to do.
      return body("journal_unavailable", message, context.journal ? { path: context.journal } : undefined);
    case "empty_database":
    case "not_a_journal":
    case "corrupt_database":
    case "corrupt_record":
    case "missing_record":
      return body(
        "journal_damaged",
        `the journal${file} is damaged: ${message}. \`verbatim doctor\` checks it; set VERBATIM_HOME to another folder to start a new journal, keeping this one for recovery.`,
        context.journal ? { path: context.journal } : undefined,
      );
  }
}

function engineBody(code: EngineError["code"], message: string, details: Record<string, unknown>): ErrorBody {
  const data = Object.keys(details).length ? details : undefined;
  switch (code) {
    case "no_provider":
      return body("no_provider", `${message} \`verbatim models\` shows what is configured.`);
    case "invalid_config":
      return body("invalid_config", `${message}. \`verbatim models\` lists the models you can choose.`, data);
    case "unsupported_content":
      return body("unsupported_content", message, data);
    case "turn_running":
      return body("session_busy", `${message}. Wait for the turn to end.`, data);
    case "queue_full":
      return body("session_busy", `${message}.`, data);
    case "closed":
      return body("closed", message, data);
    case "not_forkable":
      return body("not_forkable", message, data);
    case "unknown_message":
      return body("unknown_message", `${message}. \`verbatim show ID --ids\` lists the session's message ids.`, data);
    case "cwd_missing":
      return body("cwd_missing", message, data);
    case "invalid_title":
      return body("invalid_title", message, data);
    case "no_writer":
    case "turn_failed":
    case "following_ended":
      return body(code, message, data);
  }
}

const notFound = (sessionId: string, context: ErrorContext) =>
  body(
    "session_not_found",
    `there is no session ${sessionId} in the journal${context.journal ? ` at ${context.journal}` : ""}. ${FIND_SESSIONS}`,
    { sessionId },
  );

const body = (code: string, message: string, data?: Record<string, unknown>): ErrorBody => ({
  code,
  message,
  ...defined({ data }),
});

function fsWords(code: string): string {
  switch (code) {
    case "EACCES":
      return "permission denied";
    case "EPERM":
      return "not permitted";
    case "EROFS":
      return "the file system is read-only";
    case "ENOTDIR":
      return "a part of the path is a file, not a folder";
    case "ENOENT":
      return "no such file or folder";
    case "ENOSPC":
      return "the disk is full";
    case "EISDIR":
      return "it is a folder, not a file";
    default:
      return "the system refused";
  }
}

/**
 * Says the error on stderr and, under --json, as the last line of stdout. Returns the exit code.
 * The message may quote a provider, a journal or a file (an error text, a recorded cwd), so the
 * line shows their control characters as escapes; the JSON keeps the exact text (JSON escapes them).
 */
export function reportError(
  error: unknown,
  options: { json: boolean; sessionId?: string; context?: ErrorContext; stdout?: (text: string) => void },
): number {
  const { body: described, exit } = describeError(error, options.context);
  process.stderr.write(`verbatim: ${visible(described.message)}\n`);
  if (options.json) {
    const line = JSON.stringify({ error: described, ...(options.sessionId ? { sessionId: options.sessionId } : {}) });
    (options.stdout ?? ((text: string) => process.stdout.write(text)))(`${line}\n`);
  }
  return exit;
}

export { fsWords };
