/**
 * The runtime's violation lines as facts: `deny <syscall> <path>` (a write the mount table
 * refused), `deny network-outbound <host>:<port> (<why>)` (a connection the proxy refused);
 * anything else is kept as its line.
 */
import type { SandboxViolation } from "../../journal/facts/index.ts";

const NETWORK = /^deny network-outbound (\S+?)(?::(\d+))?(?: \(.*\))?$/;
const WRITE = /^deny (\S+) (\/.*)$/;

export function parseViolation(line: string): SandboxViolation {
  const network = NETWORK.exec(line);
  if (network) {
    const host = network[1]!.replace(/^\[(.*)\]$/, "$1");
    return { type: "network", host, ...(network[2] ? { port: Number(network[2]) } : {}), line };
  }
  const write = WRITE.exec(line);
  if (write) return { type: "write", operation: write[1]!, path: write[2]!, line };
  return { type: "other", line };
}
