/**
 * The cold-start floor: the smallest possible agent on the ACP SDK. It answers `initialize` and
 * nothing else. The benchmark builds it the same way verbatim ships (a bytecode bundle) and also
 * runs it from source.
 */
import * as acp from "@agentclientprotocol/sdk";
import { floorStdio } from "./stdio.ts";

acp
  .agent({ name: "floor" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
    authMethods: [],
  }))
  .connect(floorStdio());
