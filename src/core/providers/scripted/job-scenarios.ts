/**
 * A scripted scenario for background jobs: the prompt is a command that starts a server on
 * loopback and prints `listening on <port>`; the model starts it in the background, reads its
 * output file, asks the server over HTTP, reads the output again (the request logged), and stops it.
 * Each step takes what it needs from the previous step's results, as a model reads them.
 */
import { call, done, say, type Scenario, type ScriptContext, type Step } from "./script.ts";

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The job id and output file the Bash result named, or the `job=… path=… port=…` line a step's command echoed. */
function jobFrom(ctx: ScriptContext): { id: string; path: string; port: string } | undefined {
  const text = ctx.results.map((r) => r.text).join("\n");
  const echoed = /job=(\S+) path=(\S+) port=(\d*)/.exec(text);
  if (echoed) return { id: echoed[1] ?? "", path: echoed[2] ?? "", port: echoed[3] ?? "" };
  const started = /with ID: (\S+)\. Output is being written to: (\S+\.output)/.exec(text);
  return started ? { id: started[1] ?? "", path: started[2] ?? "", port: "" } : undefined;
}

/** A shell loop waiting (at most 10 s) for `pattern` in the output file, then echoing the job's line. */
const waitFor = (job: { id: string; path: string }, pattern: string, port: string) =>
  `P=${quoted(job.path)}; for i in $(seq 200); do grep -q ${quoted(pattern)} "$P" && break; sleep 0.05; done; ` +
  `echo "job=${job.id} path=${job.path} port=${port}"`;

const lost: Step = (ctx) => [...say(`I lost track of the job: ${ctx.results[0]?.text ?? "no result"}`), ...done()];

export const jobScenarios: Record<string, Scenario> = {
  "background-server": {
    description:
      "Starts the prompt's command (a loopback server printing `listening on <port>`) in the background, reads its output, requests / over HTTP, reads the output again and stops the job.",
    prompts: [
      [
        (ctx) => [
          ...say("Starting the server in the background. "),
          ...call(0, "call_server", "Bash", {
            command: ctx.prompt,
            run_in_background: true,
            description: "Start the server",
          }),
          ...done("tool_use"),
        ],
        (ctx) => {
          const job = jobFrom(ctx);
          if (!job) return lost(ctx);
          const command = `${waitFor(job, "listening on", "")}$(grep -o 'listening on [0-9]*' "$P" | grep -o '[0-9]*$')`;
          return [
            ...call(0, "call_wait", "Bash", { command, description: "Wait for the server" }),
            ...done("tool_use"),
          ];
        },
        (ctx) => {
          const job = jobFrom(ctx);
          if (!job?.port) return lost(ctx);
          const request =
            `exec 3<>/dev/tcp/127.0.0.1/${job.port}; printf 'GET /hello HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n' >&3; ` +
            `cat <&3; echo; echo "job=${job.id} path=${job.path} port=${job.port}"`;
          return [
            ...say("It is up. "),
            ...call(0, "call_read_1", "Read", { file_path: job.path }),
            ...call(1, "call_request", "Bash", { command: request, description: "Ask the server" }),
            ...done("tool_use"),
          ];
        },
        (ctx) => {
          const job = jobFrom(ctx);
          if (!job) return lost(ctx);
          return [
            ...call(0, "call_wait_log", "Bash", {
              command: waitFor(job, "GET /hello", job.port),
              description: "Wait for the log",
            }),
            ...done("tool_use"),
          ];
        },
        (ctx) => {
          const job = jobFrom(ctx);
          if (!job) return lost(ctx);
          return [
            ...call(0, "call_read_2", "Read", { file_path: job.path }),
            ...call(1, "call_stop", "TaskStop", { task_id: job.id }),
            ...done("tool_use"),
          ];
        },
        (ctx) => [...say(`The server answered, and it is stopped: ${ctx.results[1]?.text ?? ""}`), ...done()],
      ],
    ],
  },
};
