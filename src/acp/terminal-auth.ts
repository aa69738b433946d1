/**
 * Terminal authentication (ACP `AuthMethodTerminal`): a client that can run the agent in an
 * interactive terminal declares it (`clientCapabilities.auth.terminal`, or the older
 * `_meta["terminal-auth"]` the registry's probes still send), and then `initialize` also offers
 * `verbatim setup`. The client starts the agent's own command with these `args` (appended to its
 * usual arguments, or in their place: `verbatim setup` and `verbatim --trust setup` are both the
 * setup), and once it exits 0 starts the agent normally.
 */
import type { AuthMethod, ClientCapabilities } from "@agentclientprotocol/sdk";

export const TERMINAL_SETUP_ID = "terminal-setup";

/** Whether the client said it can run a `terminal` auth method. */
export function declaresTerminalAuth(capabilities: ClientCapabilities): boolean {
  return capabilities.auth?.terminal === true || capabilities._meta?.["terminal-auth"] === true;
}

export const terminalSetupMethod: AuthMethod = {
  type: "terminal",
  id: TERMINAL_SETUP_ID,
  name: "Set up in a terminal",
  description:
    "Choose a model provider (Anthropic, OpenAI, an OpenAI-compatible server, or the offline scripted model) and give its key; verbatim checks it and saves it in its user config file.",
  args: ["setup"],
};

/** What `initialize` offers: the terminal setup first when the client can run it, then the agent-type ways. */
export function offeredAuthMethods(capabilities: ClientCapabilities, agentMethods: AuthMethod[]): AuthMethod[] {
  if (agentMethods.length === 0) return [];
  return declaresTerminalAuth(capabilities) ? [terminalSetupMethod, ...agentMethods] : agentMethods;
}
