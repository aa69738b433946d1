/**
 * Logging, always to stderr: stdout carries only ACP messages. Quiet by default; set
 * VERBATIM_LOG=debug for more.
 */
const debugOn = process.env.VERBATIM_LOG === "debug";

const write = (level: string, message: string, detail?: unknown) => {
  const suffix = detail === undefined ? "" : ` ${detail instanceof Error ? detail.message : JSON.stringify(detail)}`;
  process.stderr.write(`verbatim ${level}: ${message}${suffix}\n`);
};

export const log = {
  debug: (message: string, detail?: unknown) => debugOn && write("debug", message, detail),
  info: (message: string, detail?: unknown) => write("info", message, detail),
  warn: (message: string, detail?: unknown) => write("warn", message, detail),
  error: (message: string, detail?: unknown) => write("error", message, detail),
};
